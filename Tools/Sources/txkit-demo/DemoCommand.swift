import ArgumentParser
import Foundation
import Messaging
import TransactionKit
import TransactionKitPostgres
import TransactionKitSQLite

/// `txkit-demo`: runs the messaging example's managers end to end on a real
/// SQLite database and narrates what happens.
///
/// - `txkit-demo` uses a file in a new temporary directory, removed at the end;
/// - `txkit-demo --path FILE` keeps the database in `FILE` (run it twice to
///   see the data persist);
/// - `txkit-demo --in-memory` uses a private in-memory database;
/// - `txkit-demo --postgres URL` runs the example's async slice on a
///   PostgreSQL server instead (``PostgresDemo``).
///
/// Bad arguments, a missing directory or an unwritable path end with a
/// one-line message and a non-zero exit status, never a crash.
@main
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "txkit-demo",
        abstract: "Run the messaging example end to end on a real SQLite database.",
        discussion: """
            Registers users, starts a conversation, mutes it for one member (a \
            setting in the key-value store), observes commits for another's inbox \
            badge, sends messages (including some the business rules refuse), \
            shows each inbox, runs a legacy import job that writes with plain GRDB \
            and calls a migrated manager in the same transaction, then shows the \
            key-value table, narrating which manager, finder and transaction does \
            what. The app opens and migrates its own GRDB pool (a queue with \
            --in-memory); SQLiteDB adopts it. With --postgres URL, runs the example's \
            async slice (AsyncChatManager, AsyncInboxManager) on a PostgreSQL server \
            instead: migrates, sends messages, shows a rolled-back write and a \
            constraint error, reads the inboxes, and closes the database.
            """
    )

    @Option(name: .long, help: ArgumentHelp(
        "Keep the database in this file (its directory must exist).", valueName: "FILE"))
    var path: String?

    @Flag(name: .long, help: "Use a private in-memory database instead of a file.")
    var inMemory = false

    @Option(name: .long, help: ArgumentHelp(
        "Run the async slice on this PostgreSQL server instead (postgresql://user:password@host:port/database).",
        valueName: "URL"))
    var postgres: String?

    func validate() throws {
        if inMemory && path != nil {
            throw ValidationError("Choose either --path or --in-memory, not both.")
        }
        if postgres != nil && (inMemory || path != nil) {
            throw ValidationError("--postgres runs on the server: it goes without --path and --in-memory.")
        }
        if let path, path.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--path needs a file name.")
        }
    }

    func run() async throws {
        if let postgres {
            try await runOnPostgres(url: postgres)
        } else {
            try runOnSQLite()
        }
    }

    /// `--postgres URL`: the async slice on the server.
    private func runOnPostgres(url: String) async throws {
        let configuration: PostgresDB.Configuration
        do {
            configuration = try PostgresDB.Configuration(url: url)
        } catch {
            throw DemoFailure("\(error)")
        }
        do {
            try await PostgresDemo(configuration: configuration).run()
        } catch {
            throw DemoFailure("the demo stopped: \(error)")
        }
    }

    /// The default: the whole example on an SQLite file or in memory.
    private func runOnSQLite() throws {
        let location = try DemoDatabaseLocation(path: path, inMemory: inMemory)
        defer { location.cleanUp() }

        // The app opens its database and migrates it, as it always did;
        // TransactionKit adopts the app's pool instead of opening a second
        // one on the file.
        let app: LegacyAppDatabase
        let db: SQLiteDB
        do {
            app = try location.open()
        } catch {
            throw DemoFailure("cannot open the demo database: \(error)")
        }
        do {
            db = try app.adopt()
        } catch {
            throw DemoFailure("SQLiteDB(adopting:) refused the app's database: \(error)")
        }
        print("TransactionKit demo: a small messaging app on a real SQLite database")
        print("")
        print("Database: \(location.summary)")
        print("  the app opened it (\(app.isInMemory ? "a GRDB DatabaseQueue, in memory" : "a GRDB DatabasePool, in WAL mode")) and \(Self.migrationSummary(applied: app.migrationsAppliedOnOpen))")
        print("  SQLiteDB(adopting:) runs the migrated managers on the app's \(app.isInMemory ? "queue" : "pool"): one writer for legacy and migrated code")

        do {
            try DemoScenario(app: app, db: db).run()
            try Self.printKeyValueTable(of: db)
        } catch {
            throw DemoFailure("the demo stopped: \(error)")
        }
        // Close explicitly: TransactionKit first (its statements on the
        // app's writer go; the app's pool stays open), then the app closes
        // its own database, reporting a connection that cannot close.
        do {
            try db.close()
        } catch {
            throw DemoFailure("TransactionKit did not close cleanly: \(error)")
        }
        do {
            try app.close()
        } catch {
            throw DemoFailure("the app's database did not close cleanly: \(error)")
        }
        if let kept = location.keptPath {
            print("")
            print("The database stays in \(kept). Run the same command again to reopen it.")
        }
    }

    /// What opening did to the schema: the migrations the app applied on
    /// this open, or the version the file was already at (another process
    /// may have applied some of them at the same moment).
    static func migrationSummary(applied: [String]) -> String {
        let all = MessagingSchema.migrator.migrations
        let current = all.last ?? "no migration"
        if applied.isEmpty {
            return "it is already at \(current) (no migration to apply)"
        }
        let summary = "migrated it (\(applied.joined(separator: ", ")))"
        if applied.count < all.count {
            return summary + ", now at \(current)"
        }
        return summary
    }
}
