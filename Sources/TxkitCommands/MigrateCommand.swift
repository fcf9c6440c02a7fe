#if Txkit
import ArgumentParser
import TxkitGenerator

/// `txkit migrate`: one consumer, all the way to the abstractions.
package struct MigrateCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Take one consumer (a manager) from GRDB to `any DB`, its data access behind shims.",
        discussion: """
            Afterwards CONSUMER holds `any DB` instead of its GRDB pool, queue, writer or \
            the app's holder; its blocks are `db.read { tx in … }` / `db.write { tx in … }`; \
            the legacy finders it holds are its pair shims (CONSUMER.Shims.FINDER); every \
            other use of the legacy transaction (records, the query interface, SQL) is a \
            requirement of CONSUMER.Shims.Database, whose wrapper holds the code as it was \
            written; its methods that received a legacy transaction take a TransactionKit \
            one. Its callers are untouched: the initializer they call, and each such \
            method, stay in CONSUMER+Production.swift, which builds the adopted database \
            (SQLiteDB.adopter(of:), or the holder's adopting SQLiteDB) and calls the \
            migrated code. Mocks go to the test target (mocksFolder).

            It writes all or nothing, and refuses with every place and its fix when it \
            cannot (a database nobody adopted, code it cannot move, a type it cannot read). \
            --dry-run prints the edits; --verify builds the package afterwards (flags after \
            `--` go to swift build) and puts every file back when the build fails.
            """
    )

    @Argument(help: "The type to migrate (a manager, a service, a job).")
    var consumer: String

    @Flag(name: .long, help: ArgumentHelp(
        "Run `swift build` in --root afterwards, and restore every file if it fails.",
        discussion: "Arguments after `--` go to swift build: --verify -- --build-tests"))
    var verify = false

    @Flag(name: .long, help: "Write nothing; print the edits and the files that would change.")
    var dryRun = false

    @Argument(parsing: .postTerminator, help: ArgumentHelp(
        "With --verify: flags for swift build, after `--`.", valueName: "swift-build-flags"))
    var buildArguments: [String] = []

    @OptionGroup var options: GeneratorOptions

    package func validate() throws {
        if verify && dryRun {
            throw ValidationError("--dry-run writes nothing, so there is nothing for --verify to build.")
        }
        if !buildArguments.isEmpty && !verify {
            throw ValidationError("Flags after `--` go to swift build with --verify: pass --verify.")
        }
    }

    /// Reads nothing: ArgumentParser fills the options.
    package init() {}

    package func run() throws {
        defer { options.reportTimings() }
        let generator = try options.generator()
        let summary = try generator.migrate(consumer: consumer)
        let files = summary.files, edits = summary.edits
        if summary.isAlreadyMigrated {
            print("\(consumer) consumes only the abstractions already (it opens no legacy transaction and names no GRDB database or legacy transaction): nothing to migrate")
            return
        }
        let changes = try generator.changes(files: files, edits: edits)
        if dryRun {
            for edit in edits { print(edit.diff) }
            for path in changes.changedPaths { print("would write \(path)") }
            print("--dry-run: \(changes.changedPaths.count) files would change; nothing was written")
            return
        }
        let build = verify ? PackageBuild(root: options.root, arguments: buildArguments) : nil
        let written = try options.stageTimings.measure(.write) { try changes.write(verifyingWith: build) { print($0) } }
        print("\(written.count) of \(files.count + edits.count) files written (the others were current)")
        let moved = summary.requirements.isEmpty ? "" : "; \(summary.requirements.count) pieces of data access moved into \(consumer).Shims.Database"
        let pairs = summary.pairs.isEmpty ? "" : "; finders behind shims: \(summary.pairs.joined(separator: ", "))"
        print("migrated \(consumer)\(moved)\(pairs)")
    }
}
#endif
