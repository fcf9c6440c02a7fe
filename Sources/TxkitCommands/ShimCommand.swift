#if Txkit
import ArgumentParser
import TxkitGenerator

/// `txkit shim`: the Shortcut Way in one command. Reads the sources, finds
/// what a consumer uses of a legacy type, and writes its shim protocol,
/// wrapper, mock and namespaces.
package struct ShimCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
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
            TransactionKit transaction it bridges); --apply makes that edit. It writes \
            all or nothing: every edited and generated file is parsed again first, and a \
            failure midway puts every file back. With --verify it then runs `swift build` \
            in --root (flags after `--` go to it) and, when the build fails, restores every \
            file as it was and prints the compiler's first errors.

            Each shim member says whether it takes a read or a write transaction, and which \
            rule decided: txkit.json's writeMembers/readMembers, the legacy transaction \
            type, what the member's body executes (or the members it calls), the blocks \
            the consumer calls it in, and last the verb its name starts with.
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

    @Flag(name: .long, help: ArgumentHelp(
        "With --apply: run `swift build` in --root afterwards, and restore every file if it fails.",
        discussion: "Arguments after `--` go to swift build: --verify -- --build-tests -Xswiftc -warnings-as-errors"))
    var verify = false

    @Argument(parsing: .postTerminator, help: ArgumentHelp(
        "With --verify: flags for swift build, after `--`.", valueName: "swift-build-flags"))
    var buildArguments: [String] = []

    @OptionGroup var options: GeneratorOptions
    @OptionGroup var output: OutputOptions

    package func validate() throws {
        if all && (consumer != nil || legacy != nil) {
            throw ValidationError("Choose either --all or --consumer and --legacy.")
        }
        if !all && (consumer == nil || legacy == nil) {
            throw ValidationError("Name both --consumer and --legacy (or pass --all).")
        }
        if apply && (all || output.check) {
            throw ValidationError("--apply rewrites one consumer: use it with --consumer and --legacy, without --check.")
        }
        if verify && output.dryRun {
            throw ValidationError("--dry-run writes nothing, so there is nothing for --verify to build.")
        }
        if verify && !apply {
            throw ValidationError("--verify builds the package after --apply: pass --apply too.")
        }
        if !buildArguments.isEmpty && !verify {
            throw ValidationError("Flags after `--` go to swift build with --verify: pass --apply --verify.")
        }
    }

    /// Reads nothing: ArgumentParser fills the options.
    package init() {}

    /// Generates (or checks) the files, and with `--apply` edits the consumer.
    package func run() throws {
        defer { options.reportTimings() }
        let generator = try options.generator()
        guard let consumer, let legacy else {
            try output.apply(generator.shimAll(), root: options.root, timings: options.stageTimings)
            return
        }
        // Everything is computed before anything is written, from one
        // plan of the pair.
        let shim = try generator.shim(consumer: consumer, legacy: legacy)
        if output.check {
            try output.apply(shim.files, root: options.root, timings: options.stageTimings)
        } else if apply {
            // All or nothing: every file is checked (and parsed again)
            // before the first is written; with --verify, restored when
            // the package no longer builds.
            let edits = try shim.edits.get()
            let changes = try generator.changes(files: shim.files, edits: edits)
            if output.dryRun {
                printDryRun(changes, edits: edits)
                return
            }
            let build = verify ? PackageBuild(root: options.root, arguments: buildArguments) : nil
            let written = try options.stageTimings.measure(.write) { try changes.write(verifyingWith: build) { print($0) } }
            print("\(written.count) of \(shim.files.count + edits.count) files written (the others were current)")
            if edits.isEmpty {
                print("\(consumer) already uses \(legacy) only through \(GeneratedLayout.shimReference(consumer: consumer, legacy: legacy))")
            }
        } else {
            try output.apply(shim.files, root: options.root, timings: options.stageTimings)
            printEdit(shim)
        }
    }

    /// `--apply --dry-run`: every file the edit would write and the
    /// consumer's diff; nothing is written.
    private func printDryRun(_ changes: FileChangeSet, edits: [ConsumerEdit]) {
        for edit in edits {
            print(edit.diff)
        }
        for path in changes.changedPaths {
            print("would write \(path)")
        }
        print("--dry-run: \(changes.changedPaths.count) files would change; nothing was written")
    }

    /// What `--apply` would change in the consumer, or why it cannot.
    private func printEdit(_ shim: Generator.ShimOutput) {
        let consumer = shim.plan.consumer.name, legacy = shim.plan.legacy.name
        do {
            let edits = try shim.edits.get()
            guard !edits.isEmpty else { return }
            print("\nWith --apply, \(consumer) would use \(legacy) only through \(GeneratedLayout.shimReference(consumer: consumer, legacy: legacy)):")
            for edit in edits {
                print(edit.diff)
            }
        } catch let error as GeneratorError where !error.refusals.isEmpty {
            let count = error.refusals.count
            print("\n--apply cannot rewrite \(consumer) yet, at \(count) place\(count == 1 ? "" : "s"):")
            for refusal in error.refusals {
                print("  \(refusal)")
            }
        } catch {
            print("\n--apply cannot rewrite \(consumer) yet: \(error)")
        }
    }
}
#endif
