import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// Every `DB` implementation the behaviour suite runs against.
enum Backend: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    case mock
    case sqliteInMemory
    case sqliteFile
    /// An application's own GRDB `DatabasePool` on a file, adopted.
    case sqliteAdoptedPool
    /// An application's own in-memory GRDB `DatabaseQueue`, adopted.
    case sqliteAdoptedQueue

    var testDescription: String {
        switch self {
        case .mock: "MockDB"
        case .sqliteInMemory: "SQLiteDB.inMemory"
        case .sqliteFile: "SQLiteDB(path:)"
        case .sqliteAdoptedPool: "SQLiteDB(adopting: DatabasePool)"
        case .sqliteAdoptedQueue: "SQLiteDB(adopting: DatabaseQueue)"
        }
    }

    /// A fresh database and the finder that matches it. A file database
    /// goes into `directory` when one is given (an exit test's child process
    /// dies before it could clean up, so its parent owns the directory), and
    /// into a temporary directory of its own otherwise.
    func makeFixture(in directory: String? = nil) throws -> Fixture {
        switch self {
        case .mock:
            return Fixture(db: MockDB(), messages: MockMessageFinder(), directory: nil)
        case .sqliteInMemory:
            return Fixture(db: try SQLiteDB.inMemory(migrator: TestSchema.migrator), messages: SQLiteMessageFinder(), directory: nil)
        case .sqliteFile:
            if let directory {
                let db = try SQLiteDB(path: directory + "/db.sqlite", migrator: TestSchema.migrator)
                return Fixture(db: db, messages: SQLiteMessageFinder(), directory: nil)
            }
            let owned = try TemporaryDirectory()
            defer { withExtendedLifetime(owned) {} }
            let db = try SQLiteDB(path: owned.path("db.sqlite"), migrator: TestSchema.migrator)
            return Fixture(db: db, messages: SQLiteMessageFinder(), directory: owned)
        case .sqliteAdoptedPool:
            let owned = directory == nil ? try TemporaryDirectory() : nil
            defer { withExtendedLifetime(owned) {} }
            let pool = try DatabasePool(path: (directory ?? owned!.path) + "/app.sqlite")
            try TestSchema.migrator.migrate(pool)
            return Fixture(db: try SQLiteDB(adopting: pool), messages: SQLiteMessageFinder(), directory: owned)
        case .sqliteAdoptedQueue:
            let queue = try DatabaseQueue()
            try TestSchema.migrator.migrate(queue)
            return Fixture(db: try SQLiteDB(adopting: queue), messages: SQLiteMessageFinder(), directory: nil)
        }
    }

    /// Whether a read transaction runs while a write's block runs (the
    /// table in `DB`'s documentation): not on the one connection of an
    /// in-memory `SQLiteDB`.
    var readsRunBesideAWrite: Bool {
        self != .sqliteInMemory && self != .sqliteAdoptedQueue
    }
}

/// A database under test, with the suite's key-value store (the real
/// `KeyValueStore`, on every backend) and its message finder.
struct Fixture: Sendable {
    let db: any DB
    /// The store most tests read and write: integers by key.
    let store = KeyValueStore(collection: "kv")
    let messages: any MessageFinding
    /// Keeps the file database's directory alive; removed on deinit.
    let directory: TemporaryDirectory?

    init(db: any DB, messages: any MessageFinding, directory: TemporaryDirectory?) {
        self.db = db
        self.messages = messages
        self.directory = directory
    }

    /// The committed integer for `key` in ``store``.
    func value(_ key: String) throws -> Int? {
        try db.read { tx in try store.getInt(key, transaction: tx) }
    }
}

/// Records events in order, from any thread.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ event: String) {
        lock.withLock { storage.append(event) }
    }

    var events: [String] {
        lock.withLock { storage }
    }
}

struct TestError: Error, Equatable {
    let id: Int
}
