import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// The synchronous `DB` implementations the programs run on.
enum DifferentialBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case mock
    case sqliteInMemory
    case sqliteFile

    var description: String {
        switch self {
        case .mock: "MockDB"
        case .sqliteInMemory: "SQLiteDB.inMemory"
        case .sqliteFile: "SQLiteDB(path:)"
        }
    }

    /// Where file databases go: a memory file system when the machine has
    /// one (`/dev/shm`: still files, WAL and a reader pool, without disk
    /// waits), the temporary directory otherwise.
    static let fileRoot: URL = {
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        if FileManager.default.isWritableFile(atPath: shm.path) { return shm }
        return FileManager.default.temporaryDirectory
    }()

    /// A fresh, empty database with the finder's tables.
    func makeDatabase() throws -> DifferentialDatabase {
        switch self {
        case .mock:
            return DifferentialDatabase(db: MockDB(), rows: MockRowFinder(), directory: nil)
        case .sqliteInMemory:
            return DifferentialDatabase(
                db: try SQLiteDB.inMemory(migrator: DifferentialSchema.migrator), rows: SQLiteRowFinder(), directory: nil)
        case .sqliteFile:
            let directory = try TemporaryDirectory(prefix: "TransactionKitDifferential", in: Self.fileRoot)
            // What is compared is behaviour, not what survives a power
            // cut: no fsync at each commit (a disk shared with builds
            // made the run 5 times slower).
            var options = SQLiteDB.Options()
            options.durability = .normal
            let db = try SQLiteDB(
                path: directory.path("db.sqlite"),
                migrator: DifferentialSchema.migrator, options: options)
            return DifferentialDatabase(db: db, rows: SQLiteRowFinder(), directory: directory)
        }
    }
}

/// A database under test and the finder that matches it.
final class DifferentialDatabase: Sendable {
    let db: any DB
    let rows: any RowFinding
    /// A file database's directory, removed with this object (after
    /// ``close()`` closed the database).
    let directory: TemporaryDirectory?

    init(db: any DB, rows: any RowFinding, directory: TemporaryDirectory?) {
        self.db = db
        self.rows = rows
        self.directory = directory
    }

    /// Closes the database; its files go with this object.
    func close() {
        if let db = db as? SQLiteDB { try? db.close() }
        if let db = db as? MockDB { db.close() }
    }
}

/// A finder that inserts a row: what the programs' `insertRow` calls.
protocol RowFinding: Sendable {
    func insert(into table: String, _ tx: DBWriteTransaction) throws
}

/// Real SQL through the bridge; SQLite reports the changed table itself.
struct SQLiteRowFinder: RowFinding {
    func insert(into table: String, _ tx: DBWriteTransaction) throws {
        try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO \(table) (text) VALUES ('row')")
    }
}

/// The mock: stores nothing, declares the change.
struct MockRowFinder: RowFinding {
    func insert(into table: String, _ tx: DBWriteTransaction) throws {
        tx.declareChange(table: table)
    }
}

/// The SQLite databases' tables, one per name the generator uses.
enum DifferentialSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("tables") { db in
            for table in ProgramGenerator.tables {
                try db.execute(sql: "CREATE TABLE \(table) (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
            }
        }
        return migrator
    }
}
