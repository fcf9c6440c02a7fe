#if Txkit
import ArgumentParser
import Foundation
import TxkitGenerator

/// `txkit mock`: a mock for a Good-Way finder protocol, in the style of
/// the mocks `txkit shim` writes.
package struct MockCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Write the mock of a finder protocol: one MockMethod per member.",
        discussion: """
            The mock checks each transaction it receives, records the arguments, and \
            answers from its stub, or fails the test through unimplemented when nobody \
            stubbed the member. It goes to txkit.json's mocksFolder. --all regenerates \
            every mock there that has a marker.
            """
    )

    @Option(name: .customLong("protocol"), help: "The protocol to mock.")
    var protocolName: String?

    @Option(name: .long, help: "The mock's name (default: the protocol's name + Mock).")
    var name: String?

    @Flag(name: .long, help: "Regenerate every mock a previous run generated.")
    var all = false

    @OptionGroup var options: GeneratorOptions
    @OptionGroup var output: OutputOptions

    package func validate() throws {
        if all == (protocolName != nil) {
            throw ValidationError("Name a --protocol, or pass --all.")
        }
        if all && name != nil {
            throw ValidationError("--name goes with --protocol, not --all.")
        }
    }

    /// Reads nothing: ArgumentParser fills the options.
    package init() {}

    /// Generates (or checks) the mocks.
    package func run() throws {
        defer { options.reportTimings() }
        let generator = try options.generator()
        let files = if let protocolName {
            [try generator.mock(protocol: protocolName, mockName: name)]
        } else {
            try generator.mockAll()
        }
        try output.apply(files, root: options.root, timings: options.stageTimings)
    }
}
#endif
