import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// Programmer errors stop the process, with the same message in every backend.
///
/// Each exit test runs its body in a child process and reads what it wrote to
/// standard error. Where the call site is checked, the misuse lives in
/// `MisuseScenarios`, outside the exit-test macro, whose expansion would
/// otherwise report its own line for `#line`.
@Suite("Misuse stops the process")
struct MisuseExitTests {
    @Test(arguments: Backend.allCases)
    func usingATransactionAfterItsBlockReturned(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            try MisuseScenarios.useEscapedWriteTransaction(backend, in: directory)
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("\(MisuseScenarios.file):\(try #require(result?.announcedLine)): Fatal error: TransactionKit misuse: "))
        #expect(message.contains("DBWriteTransaction used (addSyncCompletion) after its `write` block returned"))
        let callSite = "\(MisuseScenarios.file):\(try #require(result?.announcedLine))"
        #expect(message.components(separatedBy: callSite).count == 2, "the call site is printed once")
        #expect(message.contains("has been committed"))
        #expect(message.contains("Fix: a transaction is valid only while its block runs"))
    }

    @Test(arguments: Backend.allCases)
    func usingARolledBackTransactionInAMock(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            try MisuseScenarios.checkRolledBackTransaction(backend, in: directory)
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("\(MisuseScenarios.file):\(try #require(result?.announcedLine))"))
        #expect(message.contains("has been rolled back"))
    }

    @Test(arguments: Backend.allCases)
    func escapedReadTransaction(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            let fixture = try backend.makeFixture(in: directory)
            nonisolated(unsafe) var escaped: DBReadTransaction?
            try fixture.db.read { tx in escaped = tx }
            _ = try fixture.store.getInt("a", transaction: escaped!)
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("DBReadTransaction used"))
        #expect(message.contains("after its `read` block returned"))
        #expect(message.contains("has ended"))
    }

    @Test(arguments: Backend.allCases)
    func readInsideAWriteOfTheSameDatabase(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            try MisuseScenarios.readInsideWrite(backend, in: directory)
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("\(MisuseScenarios.file):\(try #require(result?.announcedLine)): Fatal error: TransactionKit misuse: "))
        #expect(message.contains("`read` called inside a `write` transaction of the same DB"))
        #expect(message.contains("Fix: pass the outer transaction down"))
    }

    @Test(arguments: Backend.allCases)
    func writeInsideAReadOfTheSameDatabase(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            let fixture = try backend.makeFixture(in: directory)
            try fixture.db.read { _ in
                try fixture.db.write { _ in }
            }
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("`write` called inside a `read` transaction of the same DB"))
    }

    @Test(arguments: Backend.allCases)
    func asyncWriteBlockOpeningANestedWrite(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            let fixture = try backend.makeFixture(in: directory)
            try await fixture.db.write { _ in
                try fixture.db.write { _ in }
            }
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("`write` called inside a `write` transaction of the same DB"))
    }

    @Test(arguments: Backend.allCases)
    func addingAFinalizationFromAFinalization(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            let fixture = try backend.makeFixture(in: directory)
            try fixture.db.write { tx in
                tx.addFinalization(key: "outer") { tx in
                    tx.addFinalization(key: "inner") { _ in }
                }
            }
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("addFinalization(key: \"inner\") called while the transaction's finalizations were running"))
    }

    @Test(arguments: Backend.allCases)
    func usingATransactionOnAnotherThreadWhileItsBlockRuns(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            try MisuseScenarios.useTransactionOnAnotherThread(backend, in: directory)
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("\(MisuseScenarios.file):\(try #require(result?.announcedLine)): Fatal error: TransactionKit misuse: "))
        #expect(message.contains("DBWriteTransaction used (addSyncCompletion) on a thread other than the one running its `write` block"))
        #expect(message.contains("Fix: use a transaction only on the thread that runs its block"))
    }

    @Test func theSameMistakeReadsTheSameInEveryBackend() async throws {
        var messages: [Backend: [String]] = [:]
        for backend in Backend.allCases {
            let scratch = try TemporaryDirectory()
            defer { withExtendedLifetime(scratch) {} }
            let escaped = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend = backend as Backend, directory = scratch.path as String] in
                try MisuseScenarios.useEscapedWriteTransaction(backend, in: directory)
            }
            let nestedScratch = try TemporaryDirectory()
            defer { withExtendedLifetime(nestedScratch) {} }
            let nested = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend = backend as Backend, directory = nestedScratch.path as String] in
                try MisuseScenarios.readInsideWrite(backend, in: directory)
            }
            messages[backend] = [escaped, nested].map { $0?.misuseLine ?? "no message" }
        }
        let mock = try #require(messages[.mock])
        #expect(mock.allSatisfy { $0.hasPrefix("TransactionKit misuse: ") })
        #expect(messages[.sqliteInMemory] == mock)
        #expect(messages[.sqliteFile] == mock)
    }

    @Test func bridgingAMockDBTransaction() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try MisuseScenarios.bridgeMockTransaction()
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("\(MisuseScenarios.file):\(try #require(result?.announcedLine)): Fatal error: TransactionKit misuse: "))
        #expect(message.contains("SQLiteDB.shimOnlyBridge received a transaction that came from a MockDB"))
        #expect(message.contains("Fix: mock the finder that called the bridge"))
    }

    @Test func bridgingAMockDBTransactionThroughARealFinder() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let db = MockDB()
            try db.write { tx in try SQLiteMessageFinder().insert("a", into: "message", tx) }
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("TransactionKitTests/MessageFinder.swift:"))
        #expect(message.contains("mock the finder that called the bridge"))
    }

    @Test(arguments: [Backend.sqliteInMemory, .sqliteFile])
    func bridgingAnEscapedSQLiteTransaction(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            let fixture = try backend.makeFixture(in: directory)
            nonisolated(unsafe) var escaped: DBReadTransaction?
            try fixture.db.read { tx in escaped = tx }
            _ = try SQLiteDB.shimOnlyBridge(escaped!)
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("DBReadTransaction used (SQLiteDB.shimOnlyBridge) after its `read` block returned"))
    }
}

extension ExitTest.Result {
    var standardErrorText: String {
        String(decoding: standardErrorContent, as: UTF8.self)
    }

    /// The line a scenario announced just before its misuse (see
    /// `MisuseScenarios.announce`).
    var announcedLine: Int? {
        guard let start = standardErrorText.range(of: "misuse-line: ") else { return nil }
        return Int(standardErrorText[start.upperBound...].prefix { $0.isNumber })
    }

    /// The misuse message, from `TransactionKit misuse:` to the end of its line.
    var misuseLine: String? {
        guard let start = standardErrorText.range(of: "TransactionKit misuse: ") else { return nil }
        return String(standardErrorText[start.lowerBound...].prefix { $0 != "\n" })
    }
}
