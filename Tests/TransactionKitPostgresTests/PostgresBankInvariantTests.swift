#if Postgres
import Foundation
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport

/// Concurrent transfers between accounts at the serializable level, with
/// conflicts retried: money is neither created nor destroyed, no balance
/// goes negative, and every read sees a consistent total.
@Suite("PostgresDB bank invariant", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresBankInvariantTests {
    // Enough accounts that PostgreSQL reads a balance through the primary
    // key index (its serializable mode then locks the rows it read, not the
    // whole table), few enough that transfers collide and are retried.
    static let accounts = 200
    static let initialBalance = 100

    @Test func eightTasksTimesAThousandTransfersKeepTheTotal() async throws {
        let db = try await PostgresTestServer.open {
            $0.isolation = .serializable
            $0.conflictRetries = 1_000
            $0.maximumConnections = 10
        }
        let table = try await PostgresTestServer.makeTable(db, "id INT PRIMARY KEY, balance INT NOT NULL")
        try await db.write { tx in
            let values = (0..<Self.accounts).map { "(\($0), \(Self.initialBalance))" }.joined(separator: ", ")
            try await PostgresTestServer.execute("INSERT INTO \(table) VALUES \(values)", tx)
        }
        try await db.write { tx in try await PostgresTestServer.execute("ANALYZE \(table)", tx) }
        let total = Self.accounts * Self.initialBalance
        let tasks = 8
        let transfersPerTask = 1_000
        let blockRuns = Counter()
        let refused = Counter()
        let stopReading = Counter()
        let clock = ContinuousClock()
        let start = clock.now

        // A reader checks the total while the transfers run.
        let reader = Task {
            var reads = 0
            var wrongTotals: [Int] = []
            while stopReading.value == 0 {
                let seen = try await db.read { tx in
                    try await PostgresTestServer.integer("SELECT sum(balance) FROM \(table)", tx)
                }
                if seen != total { wrongTotals.append(seen ?? -1) }
                reads += 1
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            return (reads, wrongTotals)
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var random = SplitMix(seed: UInt64(task + 1))
                    for _ in 0..<transfersPerTask {
                        let from = Int(random.next() % UInt64(Self.accounts))
                        let to = (from + 1 + Int(random.next() % UInt64(Self.accounts - 1))) % Self.accounts
                        let amount = 1 + Int(random.next() % 60)
                        try await db.write { tx in
                            blockRuns.increment()
                            let balance = try await PostgresTestServer.integer(
                                "SELECT balance FROM \(table) WHERE id = \(from)", tx) ?? 0
                            guard balance >= amount else {
                                refused.increment()
                                return
                            }
                            try await PostgresTestServer.execute(
                                "UPDATE \(table) SET balance = balance - \(amount) WHERE id = \(from)", tx)
                            try await PostgresTestServer.execute(
                                "UPDATE \(table) SET balance = balance + \(amount) WHERE id = \(to)", tx)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        stopReading.increment()
        let (reads, wrongTotals) = try await reader.value
        let elapsed = clock.now - start

        let (finalTotal, negative) = try await db.read { tx in
            (
                try await PostgresTestServer.integer("SELECT sum(balance) FROM \(table)", tx),
                try await PostgresTestServer.integer("SELECT count(*) FROM \(table) WHERE balance < 0", tx)
            )
        }
        #expect(finalTotal == total)
        #expect(negative == 0)
        #expect(wrongTotals.isEmpty, "reads saw totals \(wrongTotals.prefix(10))")
        let transfers = tasks * transfersPerTask
        #expect(blockRuns.value >= transfers)
        print(
            "bank: \(transfers) transfers by \(tasks) tasks in \(elapsed), \(blockRuns.value - transfers) conflicts "
                + "retried, \(refused.value) block runs refused for lack of funds, \(reads) consistent reads beside them, "
                + "total \(finalTotal ?? -1)")
        await db.close()
    }
}

/// A small deterministic generator, so that a failing run can be repeated.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
#endif
