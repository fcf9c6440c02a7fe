#if Txkit
import ArgumentParser
import Foundation
import TxkitGenerator

/// `txkit inventory`: step 1 of the migration guide as a command.
package struct InventoryCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "inventory",
        abstract: "List the legacy types, who uses them and how far each use is migrated.",
        discussion: """
            A legacy type has members that take one of txkit.json's legacy transaction \
            types. A use is direct (the consumer names the legacy type), bridged (through \
            its generated shim; stale when the shim differs from what txkit shim writes \
            now) or converted (through a finder protocol taking DBReadTransaction / \
            DBWriteTransaction). References to a legacy type that txkit could not follow \
            to a member (a generic argument, a collection, a cast) are listed with file:line \
            and counted as unresolved. The last line is the progress.
            """
    )

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    @Flag(name: .long, help: "Also plan `txkit convert` for each legacy type (nothing written): ready, or what blocks it.")
    var conversions = false

    @OptionGroup var options: GeneratorOptions

    /// Reads nothing: ArgumentParser fills the options.
    package init() {}

    /// Prints the inventory.
    package func run() throws {
        defer { options.reportTimings() }
        let inventory = try options.generator().inventory()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(inventory), as: UTF8.self))
            return
        }
        print("legacy types: \(inventory.legacyTypes.joined(separator: ", "))")
        print("finder protocols: \(inventory.finders.joined(separator: ", "))")
        print("")
        let width = max(8, inventory.uses.map(\.consumer.count).max() ?? 0)
        for use in inventory.uses {
            var state = use.state.rawValue
            if use.isCurrent == false { state += " (stale: run txkit shim --all)" }
            print(use.consumer.padding(toLength: width + 2, withPad: " ", startingAt: 0) + use.type
                + "  " + state)
        }
        if !inventory.unresolved.isEmpty {
            print("")
            print("unresolved (not counted above; name the legacy type there to count them):")
            for reference in inventory.unresolved {
                print("  \(reference.location): \(reference.consumer) → \(reference.type): \(reference.text)")
            }
        }
        if !inventory.consumers.isEmpty {
            print("")
            print("consumers (how each reaches the database; txkit migrate takes a legacy one to migrated):")
            let consumerWidth = inventory.consumers.map(\.consumer.count).max() ?? 8
            for access in inventory.consumers.sorted(by: { ($0.state, $0.consumer) < ($1.state, $1.consumer) }) {
                let details = access.details.isEmpty ? "" : ": " + access.details
                print("  " + access.consumer.padding(toLength: consumerWidth + 2, withPad: " ", startingAt: 0)
                    + access.state.rawValue + details)
            }
        }
        print("")
        print(inventory.progressLine)
        if !inventory.consumers.isEmpty {
            print(inventory.consumerProgressLine)
        }
        if conversions {
            try printConversions(inventory.legacyTypes)
        }
    }

    /// What `txkit convert` would do with each legacy type, or what
    /// blocks it.
    private func printConversions(_ legacyTypes: [String]) throws {
        let generator = try options.generator(includingTests: true)
        print("")
        print("txkit convert, per legacy type (planned, nothing written):")
        var printedFixes: Set<String> = []
        for legacy in legacyTypes {
            do {
                let conversion = try generator.convert(legacy: legacy)
                if conversion.blockers.isEmpty {
                    let shims = conversion.retiredPairs.isEmpty ? "" : ", retires \(conversion.retiredPairs.count) shim(s)"
                    print("  \(legacy): ready (\(conversion.changedLines) lines\(shims))")
                } else {
                    print("  \(legacy): blocked at \(conversion.blockers.count) place(s):")
                    for blocker in conversion.blockers {
                        // Each fix once: the same paragraph for a dozen
                        // finders says nothing new after the first.
                        if blocker.fix.isEmpty || printedFixes.insert(blocker.fix).inserted {
                            print("    \(blocker)")
                        } else {
                            print("    \(blocker.location): \(blocker.reason) (the fix is above)")
                        }
                    }
                }
            } catch {
                print("  \(legacy): \(error)")
            }
        }
    }
}
#endif
