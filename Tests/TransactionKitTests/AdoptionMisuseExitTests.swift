import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// Outside a test runner, misuses across the application's GRDB
/// transactions and TransactionKit's stop the process, naming the call site
/// and the fix (`AdoptionBehaviourTests` checks the same misuses under the
/// test runner).
@Suite("Adoption misuse stops the process")
struct AdoptionMisuseExitTests {
    @Test(arguments: AdoptionBehaviourTests.backends)
    func aWriteInsideTheApplicationsWriteStops(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            let db = try backend.makeFixture(in: directory).db as! SQLiteDB
            try db.writer.write { _ in
                MisuseScenarios.announce(#line); try db.write { _ in }
            }
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("AdoptionMisuseExitTests.swift:\(try #require(result?.announcedLine)): Fatal error: TransactionKit misuse: "))
        #expect(message.contains("`write` called inside a transaction that the application opened itself"))
        #expect(message.contains("Fix: bridge the application's transaction"))
    }

    /// The reverse nesting, the application's own `write` inside
    /// `db.write`, is a call TransactionKit never sees: GRDB's reentrancy
    /// precondition stops it, with GRDB's message, instead of a deadlock.
    @Test(arguments: AdoptionBehaviourTests.backends)
    func theApplicationsWriteInsideAWriteStops(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            let db = try backend.makeFixture(in: directory).db as! SQLiteDB
            try db.write { _ in
                try db.writer.write { database in try database.execute(sql: "CREATE TABLE never (id INTEGER)") }
            }
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("Database methods are not reentrant"))
    }

    @Test(arguments: AdoptionBehaviourTests.backends)
    func anEscapedBridgedTransactionStops(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            let db = try backend.makeFixture(in: directory).db as! SQLiteDB
            nonisolated(unsafe) var escaped: DBWriteTransaction?
            try db.writer.write { database in escaped = try db.writeTransaction(bridging: database) }
            _ = try SQLiteDB.shimOnlyBridge(escaped!)
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("DBWriteTransaction used (SQLiteDB.shimOnlyBridge) after its `write` block returned"))
    }

    @Test(arguments: AdoptionBehaviourTests.backends)
    func bridgingOutsideATransactionStops(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            let db = try backend.makeFixture(in: directory).db as! SQLiteDB
            try db.writer.writeWithoutTransaction { database in
                _ = try db.writeTransaction(bridging: database)
            }
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("AdoptionMisuseExitTests.swift:"))
        #expect(message.contains("writeTransaction(bridging:) received a connection that is not inside a transaction"))
    }
}
