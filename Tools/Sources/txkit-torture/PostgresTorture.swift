import Foundation
import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// The PostgreSQL torture (``PostgresTortureCommand``): writers insert
/// unique ids through `PostgresDB`, the server is killed and restarted
/// between batches, and the table is checked against what was
/// acknowledged.
struct PostgresTorture {
    let url: String
    let control: String
    let kills: Int
    let writers: Int
    let writesBetweenKills: Int
    let seed: UInt64

    struct Report: Sendable {
        var kills = 0
        var acknowledged = 0
        var lost = 0
        var failed = 0
        var failureKinds: [String] = []
        var unacknowledgedCommits = 0
        var seconds = 0.0

        var summary: String {
            "postgres torture: \(kills) server kills in \(String(format: "%.0f", seconds)) s, "
                + "\(acknowledged) writes acknowledged, lost: \(lost), \(failed) failed while the server was down "
                + "(kinds: \(failureKinds.joined(separator: ", "))), \(unacknowledgedCommits) committed without acknowledgement"
        }
    }

    func run() async throws -> Report {
        var logger = Logger(label: "txkit-torture")
        logger.logLevel = .critical
        var configuration = try PostgresDB.Configuration(url: url)
        configuration.connectTimeout = .seconds(2)
        configuration.conflictRetries = 0
        let db = try await PostgresDB.open(configuration, logger: logger)
        let table = "torture_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        try await db.write { tx in
            _ = try await PostgresDB.shimOnlyBridge(tx).query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (id BIGINT PRIMARY KEY)"))
        }
        let started = ContinuousClock.now
        let log = TortureLog()
        let writerTasks = (0..<writers).map { writer in
            Task {
                var id = Int64(writer)
                while !log.isStopped {
                    do {
                        try await db.write { [id] tx in
                            _ = try await PostgresDB.shimOnlyBridge(tx).query(
                                PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (\(id))"))
                        }
                        log.acknowledge(id)
                    } catch let error as DBError {
                        log.fail(error.kind.rawValue)
                        try? await Task.sleep(for: .milliseconds(10))
                    } catch {
                        log.fail("unexpected: \(error)")
                    }
                    // Each writer owns the ids equal to it modulo `writers`;
                    // an id whose write failed is never reused.
                    id += Int64(writers)
                }
            }
        }

        var random = TortureCommand.SplitMix64(seed: seed)
        var report = Report()
        for _ in 0..<kills {
            try await log.waitForAcknowledgements(log.acknowledgedCount + writesBetweenKills)
            try await Task.sleep(for: .milliseconds(Int(random.next() % 100)))
            try runControl("stop")
            report.kills += 1
            try await Task.sleep(for: .milliseconds(Int(random.next() % 300)))
            try runControl("start")
        }
        try await log.waitForAcknowledgements(log.acknowledgedCount + writesBetweenKills)
        log.stop()
        for task in writerTasks { await task.value }

        let stored = try await db.read { tx in
            var ids: Set<Int64> = []
            let rows = try await PostgresDB.shimOnlyBridge(tx).query(PostgresQuery(unsafeSQL: "SELECT id FROM \(table)"))
            for try await id in rows.decode(Int64.self) { ids.insert(id) }
            return ids
        }
        await db.close()
        let acknowledged = log.acknowledgedIDs
        report.acknowledged = acknowledged.count
        report.lost = acknowledged.subtracting(stored).count
        report.unacknowledgedCommits = stored.subtracting(acknowledged).count
        report.failed = log.failureCount
        report.failureKinds = log.failureKinds.sorted()
        report.seconds = Double((ContinuousClock.now - started).components.seconds)
        return report
    }

    /// Runs Scripts/postgres-control.sh with `command`, its output thrown
    /// away (posix_spawn: the server it starts keeps running).
    private func runControl(_ command: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(control), strdup(command), nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, control, &actions, nil, argv, environ) == 0 else {
            throw TortureFailure("cannot run \(control) \(command)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else { throw TortureFailure("\(control) \(command) failed (wait status \(status))") }
    }

    struct TortureFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// What the writers saw.
final class TortureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var acknowledged: Set<Int64> = []
    private var kinds: Set<String> = []
    private var failures = 0
    private var stopped = false

    var isStopped: Bool { lock.withLock { stopped } }
    var acknowledgedIDs: Set<Int64> { lock.withLock { acknowledged } }
    var acknowledgedCount: Int { lock.withLock { acknowledged.count } }
    var failureKinds: Set<String> { lock.withLock { kinds } }
    var failureCount: Int { lock.withLock { failures } }

    func acknowledge(_ id: Int64) { lock.withLock { _ = acknowledged.insert(id) } }
    func stop() { lock.withLock { stopped = true } }
    func fail(_ kind: String) {
        lock.withLock {
            failures += 1
            kinds.insert(kind)
        }
    }

    /// Waits until `count` writes were acknowledged (at most two minutes).
    func waitForAcknowledgements(_ count: Int) async throws {
        for _ in 0..<12_000 where acknowledgedCount < count {
            try await Task.sleep(for: .milliseconds(10))
        }
        guard acknowledgedCount >= count else {
            throw PostgresTorture.TortureFailure("writes did not resume after a restart (\(acknowledgedCount) of \(count))")
        }
    }
}
