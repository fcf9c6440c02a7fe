import ArgumentParser
import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite

/// `txkit demo`: runs a short scenario on a real SQLite file.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a short scenario on a real SQLite database."
    )

    @Option(help: "Keep the database at this path instead of a temporary directory.")
    var path: String?

    @Flag(help: "Use an in-memory database.")
    var inMemory = false

    func run() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("txkit-demo-\(UUID().uuidString)")
        var migrator = DatabaseMigrator()
        migrator.registerMigration("notes") { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
        let db: SQLiteDB
        do {
            if inMemory {
                db = try SQLiteDB.inMemory(migrator: migrator)
            } else if let path {
                db = try SQLiteDB(path: path, migrator: migrator)
            } else {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                db = try SQLiteDB(path: directory.appendingPathComponent("demo.sqlite").path, migrator: migrator)
            }
        } catch {
            throw ValidationError("\(error)")
        }
        print("Opened \(db.path)")
        try db.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: ["hello"])
            tx.addSyncCompletion { print("Committed one note") }
        }
        let count = try db.read { tx in try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM note") ?? 0 }
        print("The database holds \(count) note(s)")
        if !inMemory && path == nil {
            try? FileManager.default.removeItem(at: directory)
        }
    }
}
