import Foundation
import Testing
import TransactionKit
import TransactionKitTesting

/// Every `AsyncDB` implementation the async behaviour suite runs against.
/// `PostgresDB` joins as another case (skipped without a server), with a
/// fixture that empties its key-value table.
enum AsyncBackend: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    case mock

    var testDescription: String {
        switch self {
        case .mock: "MockDB"
        }
    }

    /// A fresh database.
    func makeFixture() throws -> AsyncFixture {
        switch self {
        case .mock:
            let db = MockDB()
            return AsyncFixture(db: db, syncDB: db)
        }
    }
}

/// An `AsyncDB` under test, with the store the suite reads and writes.
struct AsyncFixture: Sendable {
    let db: any AsyncDB
    /// The same database as a `DB`, when it is one too (`MockDB`), to
    /// compare the two APIs.
    let syncDB: (any DB)?
    /// The store most tests use: integers by key.
    let store = KeyValueStore(collection: "kv")

    /// The committed integer for `key` in ``store``.
    func value(_ key: String) async throws -> Int? {
        try await db.read { tx in try store.getInt(key, transaction: tx) }
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
