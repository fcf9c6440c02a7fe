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

            For one pair, it also prints the edit that makes CONSUMER use LEGACY only \
            through CONSUMER.Shims.LEGACY (a stored property and initializer parameter, \
            each use routed through it, each legacy transaction replaced by the \
            TransactionKit transaction it bridges); --apply makes that edit.
            """
    )

    @Option(name: .long, help: "The type that uses the legacy type (a manager).")
    var consumer: String?

    @Option(name: .long, help: "The legacy type whose members take a legacy transaction.")
    var legacy: String?

    @Flag(name: .long, help: "Regenerate every consumer/legacy pair a previous run generated.")
    var all = false

    @Flag(name: .long, help: "Also rewrite the consumer to use the legacy type through its shim.")
    var apply = false

    @OptionGroup var options: GeneratorOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if all && (consumer != nil || legacy != nil) {
            throw ValidationError("Choose either --all or --consumer and --legacy.")
        }
        if !all && (consumer == nil || legacy == nil) {
            throw ValidationError("Name both --consumer and --legacy (or pass --all).")
        }
        if apply && (all || output.check) {
            throw ValidationError("--apply rewrites one consumer: use it with --consumer and --legacy, without --check.")
        }
    }

    func run() throws {
        let generator = try options.generator()
        var files: [GeneratedFile] = []
        if all {
            files = try generator.shim(pairs: generator.generatedPairs())
            try output.apply(files, root: options.root)
        } else if let consumer, let legacy {
            // Everything is computed before anything is written.
            files = try generator.shim(consumer: consumer, legacy: legacy)
            if output.check {
                try output.apply(files, root: options.root)
            } else if apply {
                let edits = try generator.apply(consumer: consumer, legacy: legacy)
                try output.apply(files, root: options.root)
                for edit in edits {
                    try edit.write()
                    print("rewrote \(edit.path)")
                }
                if edits.isEmpty {
                    print("\(consumer) already uses \(legacy) only through \(consumer).Shims.\(legacy)")
                }
            } else {
                try output.apply(files, root: options.root)
                printEdit(generator, consumer: consumer, legacy: legacy)
            }
        }
    }

    /// What `--apply` would change in the consumer, or why it cannot.
    private func printEdit(_ generator: Generator, consumer: String, legacy: String) {
        do {
            let edits = try generator.apply(consumer: consumer, legacy: legacy)
            guard !edits.isEmpty else { return }
            print("\nWith --apply, \(consumer) would use \(legacy) only through \(consumer).Shims.\(legacy):")
            for edit in edits {
                print(edit.diff)
            }
        } catch {
            print("\n--apply cannot rewrite \(consumer) yet: \(error)")
        }
    }
}
