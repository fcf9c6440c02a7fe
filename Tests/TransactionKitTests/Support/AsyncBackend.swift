import Foundation
import Testing
import TransactionKit
import TransactionKitTesting

#if Postgres
import PostgresNIO
import TransactionKitPostgres
#endif

/// Every `AsyncDB` implementation the async behaviour suite runs against:
/// `MockDB`, and `PostgresDB` when the package is built with the `Postgres`
/// trait and a server is given in `TXKIT_POSTGRES_URL` (see
/// Scripts/with-postgres.sh; without one, `PostgresTestServer` reports the
/// skip once).
enum AsyncBackend: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    case mock
    #if Postgres
    case postgres
    #endif

    static var allCases: [AsyncBackend] {
        #if Postgres
        PostgresTestServer.url == nil ? [.mock] : [.mock, .postgres]
        #else
        [.mock]
        #endif
    }

    var testDescription: String {
        switch self {
        case .mock: "MockDB"
        #if Postgres
        case .postgres: "PostgresDB"
        #endif
        }
    }

    /// Whether the database runs one write at a time (`MockDB`), rather
    /// than side by side with conflicts rolled back and retried
    /// (`PostgresDB`).
    var serializesWrites: Bool { self == .mock }

    /// A fresh database.
    func makeFixture() async throws -> AsyncFixture {
        switch self {
        case .mock:
            let db = MockDB()
            return AsyncFixture(db: db, syncDB: db, store: MockIntStore())
        #if Postgres
        case .postgres:
            let (db, table) = try await PostgresTestServer.makeDatabaseWithTable()
            return AsyncFixture(db: db, syncDB: nil, store: PostgresIntStore(table: table))
        #endif
        }
    }
}

/// Integers by key, read and written inside a transaction: what the suite
/// stores. A `KeyValueStore` on `MockDB`; a table, through a finder, on
/// PostgreSQL (whose transactions reach the server only asynchronously).
protocol AsyncIntStore: Sendable {
    func getInt(_ key: String, transaction: DBReadTransaction) async throws -> Int?
    func setInt(_ value: Int, key: String, transaction: DBWriteTransaction) async throws
}

struct MockIntStore: AsyncIntStore {
    let store = KeyValueStore(collection: "kv")

    func getInt(_ key: String, transaction: DBReadTransaction) async throws -> Int? {
        try store.getInt(key, transaction: transaction)
    }

    func setInt(_ value: Int, key: String, transaction: DBWriteTransaction) async throws {
        try store.setInt(value, key: key, transaction: transaction)
    }
}

#if Postgres
/// A finder over a table `(key TEXT PRIMARY KEY, value BIGINT)`.
struct PostgresIntStore: AsyncIntStore {
    let table: String

    func getInt(_ key: String, transaction: DBReadTransaction) async throws -> Int? {
        let connection = try PostgresDB.shimOnlyBridge(transaction)
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT value FROM \(table) WHERE key = $1", binds: try binds(key)),
            logger: PostgresTestServer.logger)
        for try await value in rows.decode(Int.self) { return value }
        return nil
    }

    func setInt(_ value: Int, key: String, transaction: DBWriteTransaction) async throws {
        let connection = try PostgresDB.shimOnlyBridge(transaction)
        var bindings = try binds(key)
        bindings.append(value)
        try await connection.query(
            PostgresQuery(
                unsafeSQL: "INSERT INTO \(table) (key, value) VALUES ($1, $2) "
                    + "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                binds: bindings),
            logger: PostgresTestServer.logger)
    }

    private func binds(_ key: String) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(key)
        return bindings
    }
}
#endif

/// An `AsyncDB` under test, with the store the suite reads and writes.
struct AsyncFixture: Sendable {
    let db: any AsyncDB
    /// The same database as a `DB`, when it is one too (`MockDB`), to
    /// compare the two APIs.
    let syncDB: (any DB)?
    /// The store most tests use: integers by key.
    let store: any AsyncIntStore

    /// The committed integer for `key` in ``store``.
    func value(_ key: String) async throws -> Int? {
        try await db.read { tx in try await store.getInt(key, transaction: tx) }
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
