import ArgumentParser
import TxkitGenerator

/// `txkit shim`: the Shortcut Way in one command. Reads the sources, finds
/// what a consumer uses of a legacy type, and writes its shim protocol,
/// wrapper, mock and namespaces.
struct ShimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shim",
        abstract: "Write the shim, wrapper and mock through which a consumer uses a legacy type.",
        discussion: """
            Finds every member of LEGACY that CONSUMER uses (static calls, calls through \
            properties, locals and parameters, property reads and writes), reads their \
            declarations wherever they are, and writes CONSUMER_LEGACYShim (only those \
            members, taking DBReadTransaction / DBWriteTransaction), CONSUMER_LEGACYWrapper \
            (forwarding through the bridge of txkit.json), CONSUMER_LEGACYMock (one \
            MockMethod per member) and the Shims / Wrappers / Mocks namespaces. Files \
            start with a marker; a file without it is never overwritten. --all \
            regenerates every pair that has a marker.
            """
    )

    @Option(name: .long, help: "The type that uses the legacy type (a manager).")
    var consumer: String?

    @Option(name: .long, help: "The legacy type whose members take a legacy transaction.")
    var legacy: String?

    @Flag(name: .long, help: "Regenerate every consumer/legacy pair a previous run generated.")
    var all = false

    @OptionGroup var options: GeneratorOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if all && (consumer != nil || legacy != nil) {
            throw ValidationError("Choose either --all or --consumer and --legacy.")
        }
        if !all && (consumer == nil || legacy == nil) {
            throw ValidationError("Name both --consumer and --legacy (or pass --all).")
        }
    }

    func run() throws {
        let generator = try options.generator()
        var files: [GeneratedFile] = []
        if all {
            for pair in generator.generatedPairs() {
                for file in try generator.shim(consumer: pair.consumer, legacy: pair.legacy)
                where !files.contains(where: { $0.path == file.path }) {
                    files.append(file)
                }
            }
        } else if let consumer, let legacy {
            files = try generator.shim(consumer: consumer, legacy: legacy)
        }
        try output.apply(files, root: options.root)
    }
}
