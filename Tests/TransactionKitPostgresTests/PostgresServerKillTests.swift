#if Postgres
import Foundation
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport

/// The server dies under running transactions, then comes back: on a
/// private server of this test's own (Scripts/postgres-control.sh), so that
/// the tests beside it keep theirs.
@Suite(
    "PostgresDB when the server is killed",
    .enabled(if: PostgresTestServer.url != nil && postgresControl != nil, PostgresTestServer.skipReason))
struct PostgresServerKillTests {
    @Test func noAcknowledgedCommitIsLostAndInFlightTransactionsFailTyped() async throws {
        let server = try PrivatePostgresServer(name: "kill-\(UUID().uuidString.prefix(8))")
        let url = try await server.start()
        var configuration = try PostgresDB.Configuration(url: url)
        configuration.conflictRetries = 0
        // Room for a connection however loaded the machine: writers wait
        // for the pool through the outage rather than fail on a timer.
        configuration.connectTimeout = .seconds(10)
        let db = try await PostgresDB.open(configuration, logger: PostgresTestServer.logger)
        let table = try await PostgresTestServer.makeTable(db, "id INT PRIMARY KEY")

        let log = WriterLog()
        let writers = 4
        let writerTasks = (0..<writers).map { writer in
            Task {
                var next = writer
                while !log.isStopped {
                    let id = next
                    do {
                        try await db.write { tx in
                            try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (\(id))", tx)
                        }
                        log.acknowledge(id)
                    } catch let error as DBError {
                        log.fail(error)
                        try? await Task.sleep(nanoseconds: 20_000_000)
                    } catch {
                        log.fail(unexpected: error)
                    }
                    // Each writer owns the ids equal to it modulo `writers`;
                    // an id whose write failed is not reused.
                    next += writers
                }
            }
        }

        // A write suspended in the middle of its block when the server dies.
        let inserted = AsyncStream<Void>.makeStream()
        let resume = AsyncStream<Void>.makeStream()
        let inFlight = Task {
            try await db.write { tx in
                try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (-1)", tx)
                inserted.continuation.yield()
                for await _ in resume.stream { break }
                try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (-2)", tx)
            }
        }
        for await _ in inserted.stream { break }

        try await log.waitForAcknowledgements(200)
        try await server.stop()
        resume.continuation.yield()
        let inFlightError = await #expect(throws: DBError.self) { try await inFlight.value }
        #expect(inFlightError?.kind == .connectionFailed, "\(String(describing: inFlightError))")
        #expect(inFlightError.map { !String(describing: $0).contains(configuration.password ?? "?") } == true)
        try await Task.sleep(nanoseconds: 500_000_000)
        let acknowledgedBeforeRestart = log.acknowledgedCount
        _ = try await server.start()
        try await log.waitForAcknowledgements(acknowledgedBeforeRestart + 200)
        log.stop()
        for task in writerTasks { await task.value }

        let stored = try await db.read { tx in
            try await PostgresTestServer.integers("SELECT id FROM \(table)", tx)
        }
        let acknowledged = log.acknowledgedIDs
        let lost = acknowledged.subtracting(stored)
        #expect(lost.isEmpty, "acknowledged commits lost: \(lost.sorted().prefix(20))")
        #expect(!stored.contains(-1) && !stored.contains(-2), "the killed transaction left nothing")
        #expect(log.unexpectedErrors.isEmpty, "\(log.unexpectedErrors)")
        #expect(log.failureKinds.subtracting([.connectionFailed]).isEmpty, "\(log.failureKinds)")
        print(
            "server kill: \(acknowledged.count) writes acknowledged, \(lost.count) lost, "
                + "\(log.failureCount) failed while the server was down (kinds: "
                + "\(log.failureKinds.map(\.rawValue).sorted())), \(stored.count - acknowledged.count) "
                + "committed without acknowledgement")
        await db.close()
        try await server.stop()
    }
}

/// What the writers of the kill test saw.
final class WriterLog: @unchecked Sendable {
    private let lock = NSLock()
    private var acknowledged: Set<Int> = []
    private var kinds: Set<DBError.Kind> = []
    private var failures = 0
    private var unexpected: [String] = []
    private var stopped = false

    var isStopped: Bool { lock.withLock { stopped } }
    var acknowledgedIDs: Set<Int> { lock.withLock { acknowledged } }
    var acknowledgedCount: Int { lock.withLock { acknowledged.count } }
    var failureKinds: Set<DBError.Kind> { lock.withLock { kinds } }
    var failureCount: Int { lock.withLock { failures } }
    var unexpectedErrors: [String] { lock.withLock { unexpected } }

    func acknowledge(_ id: Int) { lock.withLock { _ = acknowledged.insert(id) } }
    func stop() { lock.withLock { stopped = true } }

    func fail(_ error: DBError) {
        lock.withLock {
            failures += 1
            kinds.insert(error.kind)
        }
    }

    func fail(unexpected error: any Error) {
        lock.withLock { unexpected.append(String(describing: error)) }
    }

    /// Waits until `count` writes were acknowledged (at most a minute).
    func waitForAcknowledgements(_ count: Int) async throws {
        for _ in 0..<6_000 where acknowledgedCount < count {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        try #require(acknowledgedCount >= count, "writes did not resume")
    }
}
#endif
