import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// Value observation on every `AsyncDB` (`MockDB`, and `PostgresDB` when a
/// server is given): commits made through the database, with the tables
/// the finders declare, trigger the next fetch.
@Suite("AsyncDB value observation")
struct AsyncDBValueObservationTests {
    /// Writes key `a` and declares a change of `table`.
    static func write(_ value: Int, declaring table: String, _ fixture: AsyncFixture) async throws {
        try await fixture.db.write { tx in
            try await fixture.store.setInt(value, key: "a", transaction: tx)
            tx.declareChange(table: table)
        }
    }

    @Test(arguments: AsyncBackend.allCases)
    func aDeclaredReadIsTracked(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        var values = fixture.db.observe { tx in
            tx.declareRead(table: "scores")
            return try await fixture.store.getInt("a", transaction: tx) ?? 0
        }.makeAsyncIterator()
        #expect(try await values.next() == 0)

        // A commit that changes another table only.
        try await fixture.db.write { tx in tx.declareChange(table: "other") }
        #expect(!values.isStale)
        try await Self.write(2, declaring: "scores", fixture)
        #expect(values.isStale)
        #expect(try await values.next() == 2)
    }

    @Test(arguments: AsyncBackend.allCases)
    func explicitTrackingOnAnAsyncDB(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        var values = fixture.db.observe(tracking: DBRegion(tables: ["scores"])) { tx in
            try await fixture.store.getInt("a", transaction: tx) ?? 0
        }.makeAsyncIterator()
        #expect(try await values.next() == 0)
        try await Self.write(3, declaring: "scores", fixture)
        #expect(try await values.next() == 3)
    }

    @Test(arguments: AsyncBackend.allCases)
    func aRolledBackAsyncWriteChangesNothing(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        var values = fixture.db.observe(tracking: DBRegion(tables: ["scores"])) { tx in
            try await fixture.store.getInt("a", transaction: tx) ?? 0
        }.makeAsyncIterator()
        _ = try await values.next()
        await #expect(throws: TestError.self) {
            try await fixture.db.write { tx in
                try await fixture.store.setInt(1, key: "a", transaction: tx)
                tx.declareChange(table: "scores")
                throw TestError(id: 1)
            }
        }
        #expect(!values.isStale)
    }
}
