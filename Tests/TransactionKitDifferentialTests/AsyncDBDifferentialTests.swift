#if Postgres
import Foundation
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport
import TransactionKitTesting

/// `MockDB` against `PostgresDB`, both as `AsyncDB`, on random programs of
/// the async subset (see ``ProgramGenerator/isAsyncSubset``), whose values
/// live in each database's `KeyValueStore`, on the server of
/// Scripts/with-postgres.sh:
///
///     Scripts/with-postgres.sh swift test --traits Postgres --scratch-path .build-pg --filter AsyncDBDifferential
///
/// Without `TXKIT_POSTGRES_URL` the suite is skipped. The budget is
/// ``DifferentialBudget``'s.
@Suite(
    "AsyncDB differential: MockDB against PostgresDB on random programs",
    .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct AsyncDBDifferentialTests {
    @Test func mockDBLeavesTheSameTraceAsPostgresDB() async throws {
        let postgres = try await PostgresTestServer.open()
        let budget = DifferentialBudget.current
        let programs = budget.programs
        var mockSeconds = 0.0
        var postgresSeconds = 0.0
        let clock = ContinuousClock()

        func traces(_ program: Program) async throws -> (Trace, Trace) {
            let start = clock.now
            let mock = await Self.trace(program, on: MockDB(), store: KeyValueIntStore())
            let middle = clock.now
            try await PostgresTestServer.removeAllKeyValues(postgres)
            let real = await Self.trace(program, on: postgres, store: KeyValueIntStore())
            mockSeconds += (middle - start).seconds
            postgresSeconds += (clock.now - middle).seconds
            return (mock, real)
        }

        for index in 0..<programs {
            var generator = ProgramGenerator(seed: SplitMix64.programSeed(budget.seed, index: index), asyncSubset: true)
            let program = generator.program()
            let (mock, real) = try await traces(program)
            guard mock != real else { continue }
            var shrunk = program
            var improved = true
            while improved {
                improved = false
                for candidate in Shrinker.candidates(shrunk) where candidate.weight < shrunk.weight {
                    let (left, right) = try await traces(candidate)
                    if left != right {
                        shrunk = candidate
                        improved = true
                        break
                    }
                }
            }
            let (left, right) = try await traces(shrunk)
            Issue.record(Comment(rawValue: DifferentialCheck.report(
                original: program, shrunk: shrunk,
                difference: Trace.diff(left, right, leftName: "MockDB", rightName: "PostgresDB"),
                candidate: "MockDB (AsyncDB)", reference: "PostgresDB", seed: budget.seed, index: index,
                check: "try await AsyncDBDifferentialTests.expectSameTraces")))
            break
        }
        if budget.isCustom {
            print("differential: \(programs) async programs, MockDB against PostgresDB, "
                + "seed 0x\(String(budget.seed, radix: 16)): MockDB \(Int(Double(programs) / max(mockSeconds, 1e-9))) programs/s, "
                + "PostgresDB \(Int(Double(programs) / max(postgresSeconds, 1e-9))) programs/s")
        }
        await postgres.close()
    }

    /// Printed by the run against a bug planted in `MockDB` (a key-value
    /// removal applied at once, so not rolled back), then pasted as is.
    @Test func mismatchSeed74786b6974646966Program140() async throws {
        try await AsyncDBDifferentialTests.expectSameTraces(Program(steps: [
            .write([.set("kv", "b", .int(0))], .returns(0)),
            .write([.remove("kv", "b")], .throws(6)),
        ]))
    }

    /// Checks that `program` leaves the same trace on `MockDB` and
    /// `PostgresDB`: the body of a printed regression test (it needs the
    /// server, like this suite).
    static func expectSameTraces(_ program: Program, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let postgres = try await PostgresTestServer.open()
        let mock = await trace(program, on: MockDB(), store: KeyValueIntStore())
        let real = await trace(program, on: postgres, store: KeyValueIntStore())
        let difference = Trace.diff(mock, real, leftName: "MockDB", rightName: "PostgresDB")
        #expect(mock == real, Comment(rawValue: difference), sourceLocation: sourceLocation)
        await postgres.close()
    }

    static func trace(_ program: Program, on db: any AsyncDB, store: any AsyncIntStore) async -> Trace {
        let interpreter = AsyncProgramInterpreter(db: db, store: store)
        let collector = MisuseCollector()
        var trace = await collector.collecting {
            await interpreter.run(program)
        }
        trace.misuseReports = collector.drain().map(AsyncProgramInterpreter.withoutUseName)
        return trace
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
#endif
