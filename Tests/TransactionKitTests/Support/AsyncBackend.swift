import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport
import GRDB
import TransactionKitSQLite
import TransactionKitTesting

#if Postgres
import TransactionKitPostgres
#endif

/// Every `AsyncDB` implementation the async behaviour suite runs against:
/// `MockDB`, `SQLiteDB` in memory, on a file and adopting an application's
/// `DatabasePool`, and `PostgresDB` when the
/// package is built with the `Postgres` trait and a server is given in
/// `TXKIT_POSTGRES_URL` (see Scripts/with-postgres.sh).
enum AsyncBackend: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    case mock
    case sqliteMemory
    case sqliteFile
    case sqliteAdoptedPool
    #if Postgres
    case postgres
    #endif

    /// `SQLiteDB` is an `AsyncDB` from macOS 15, iOS 18, tvOS 18 and
    /// watchOS 11 (and on Linux); below, the suite runs on the others.
    static var allCases: [AsyncBackend] {
        var cases: [AsyncBackend] = [.mock]
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            cases += [.sqliteMemory, .sqliteFile, .sqliteAdoptedPool]
        }
        #if Postgres
        if PostgresTestServer.url != nil {
            cases.append(.postgres)
        }
        #endif
        return cases
    }

    /// The databases whose reads run beside a write that is suspended: all
    /// but an in-memory `SQLiteDB`, whose one connection runs one
    /// transaction at a time (a read beside a suspended write waits for it).
    static var withConcurrentReads: [AsyncBackend] {
        allCases.filter { $0 != .sqliteMemory }
    }

    var testDescription: String {
        switch self {
        case .mock: "MockDB"
        case .sqliteMemory: "SQLiteDB in memory"
        case .sqliteFile: "SQLiteDB file"
        case .sqliteAdoptedPool: "SQLiteDB(adopting: DatabasePool)"
        #if Postgres
        case .postgres: "PostgresDB"
        #endif
        }
    }

    /// Whether the database runs one write at a time (`MockDB`, `SQLiteDB`),
    /// rather than side by side with conflicts rolled back and retried
    /// (`PostgresDB`).
    var serializesWrites: Bool {
        #if Postgres
        self != .postgres
        #else
        true
        #endif
    }

    /// Whether a transaction's connection may be used only on its own
    /// thread (`SQLiteDB`: GRDB's rule), so that the block must be back on
    /// the connection's executor to use it.
    var bindsConnectionsToThreads: Bool {
        switch self {
        case .sqliteMemory, .sqliteFile, .sqliteAdoptedPool: true
        default: false
        }
    }

    /// A fresh database.
    func makeFixture() async throws -> AsyncFixture {
        switch self {
        case .mock:
            let db = MockDB()
            return AsyncFixture(db: db, syncDB: db, store: KeyValueIntStore())
        case .sqliteMemory, .sqliteFile, .sqliteAdoptedPool:
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else {
                preconditionFailure("SQLiteDB is an AsyncDB from macOS 15 / iOS 18 (allCases leaves it out below)")
            }
            return try makeSQLiteFixture()
        #if Postgres
        case .postgres:
            let db = try await PostgresTestServer.open { configuration in
                // The suite's increments collide on one row: enough
                // retries that every one of them commits.
                configuration.conflictRetries = 1_000
                configuration.maximumConnections = 8
            }
            return AsyncFixture(db: db, syncDB: nil, store: KeyValueIntStore())
        #endif
        }
    }

    /// A fresh `SQLiteDB`, for the three SQLite cases.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    private func makeSQLiteFixture() throws -> AsyncFixture {
        switch self {
        case .sqliteMemory:
            let db = try SQLiteDB.inMemory()
            return AsyncFixture(db: db, syncDB: db, store: KeyValueIntStore())
        case .sqliteFile:
            let directory = try TemporaryDirectory()
            let db = try SQLiteDB(path: directory.path("async.sqlite"))
            return AsyncFixture(db: db, syncDB: db, store: KeyValueIntStore(), keepAlive: directory)
        case .sqliteAdoptedPool:
            let directory = try TemporaryDirectory()
            let db = try SQLiteDB(adopting: try DatabasePool(path: directory.path("adopted.sqlite")))
            return AsyncFixture(db: db, syncDB: db, store: KeyValueIntStore(), keepAlive: directory)
        default:
            preconditionFailure("\(self) is not an SQLiteDB")
        }
    }
}

/// An `AsyncDB` under test, with the store the suite reads and writes.
struct AsyncFixture: Sendable {
    let db: any AsyncDB
    /// The same database as a `DB`, when it is one too (`MockDB`, `SQLiteDB`), to
    /// compare the two APIs.
    let syncDB: (any DB)?
    /// The store most tests use: integers by key.
    let store: any AsyncIntStore
    /// What the database needs alive (its temporary directory).
    var keepAlive: (any Sendable)? = nil

    /// The committed integer for `key` in ``store``.
    func value(_ key: String) async throws -> Int? {
        try await db.read { tx in try await store.getInt(key, transaction: tx) }
    }
}

/// The suite's integers are all in one collection.
extension AsyncIntStore {
    func getInt(_ key: String, transaction: DBReadTransaction) async throws -> Int? {
        try await getInt(key, in: "kv", transaction: transaction)
    }

    func setInt(_ value: Int, key: String, transaction: DBWriteTransaction) async throws {
        try await setInt(value, key: key, in: "kv", transaction: transaction)
    }
}

/// A one-shot signal between tasks: `wait()` suspends until `signal()`.
final class AsyncSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Void>.makeStream()
    }

    func signal() {
        continuation.yield()
        continuation.finish()
    }

    func wait() async {
        for await _ in stream { return }
    }
}

/// Carries a transaction where the compiler would refuse it, to commit the
/// misuses the checks must catch.
final class TransactionSmuggler<Transaction: DBReadTransaction>: @unchecked Sendable {
    var transaction: Transaction?
}

/// A thread identifier, to check that a block changed threads.
func currentThreadNumber() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
