#if Txkit
import ArgumentParser
import Foundation
import TxkitGenerator

/// `txkit init`: the first command. Looks at the project and writes a
/// starting `txkit.json`, commented, with the legacy transaction types it
/// found.
package struct InitCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starting txkit.json after looking at the sources.",
        discussion: """
            Reads the Swift files of --sources (default: each folder of Sources/), proposes as \
            legacy transaction types the parameter types that are GRDB's Database or are named \
            …Transaction, and writes txkit.json with a comment entry ("// key") before each \
            setting. It never overwrites an existing txkit.json. Then run txkit inventory.
            """
    )

    @Flag(name: .long, help: "Print the proposed txkit.json; write nothing.")
    var dryRun = false

    @OptionGroup var options: GeneratorOptions

    /// Reads nothing: ArgumentParser fills the options.
    package init() {}

    /// Writes `txkit.json` (or prints it with `--dry-run`).
    package func run() throws {
        let path = (options.root as NSString).appendingPathComponent("txkit.json")
        if FileManager.default.fileExists(atPath: path) && !dryRun {
            throw ExistingConfiguration(path: path)
        }
        defer { options.reportTimings() }
        let proposal = try Generator.proposeConfiguration(
            root: options.root, sources: options.sources.isEmpty ? nil : options.sources, timings: options.stageTimings)
        if dryRun {
            print(proposal.file.contents, terminator: "")
            return
        }
        _ = try options.stageTimings.measure(.write) {
            try FileChangeSet(root: options.root, files: [proposal.file], edits: []).write()
        }
        print("wrote \(path)")
        print("sources: \(proposal.sources.joined(separator: ", "))")
        if proposal.candidates.isEmpty {
            print("no legacy transaction type found: add yours to legacyTransactions (Guides/Configuration.md)")
        } else {
            let found = proposal.candidates.map { "\($0.type) (\($0.parameterCount) parameter\($0.parameterCount == 1 ? "" : "s"))" }
            print("legacy transaction types proposed: \(found.joined(separator: ", ")); remove those that are not")
        }
        print("next: txkit inventory")
    }

    /// `txkit init` found a `txkit.json` and left it alone.
    struct ExistingConfiguration: Error, CustomStringConvertible {
        let path: String

        var description: String {
            "\(path) exists; txkit init does not overwrite it. Edit it (Guides/Configuration.md), or move it "
                + "away and run txkit init again (--dry-run prints what it would write)"
        }
    }
}
#endif
