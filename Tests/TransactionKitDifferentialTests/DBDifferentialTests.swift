import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport

/// `MockDB` against `SQLiteDB`, in memory and on a file, on random
/// transaction programs (see ``Program`` for the language): every program
/// must leave the same trace on both. A mismatch is shrunk and printed as a
/// test to paste into DifferentialRegressionTests.swift.
///
///     swift test --filter DBDifferentialTests                     # fixed seed, 300 programs per pair
///     TXKIT_DIFF_PROGRAMS=100000 swift test --filter DBDifferentialTests   # new seed, printed
///     TXKIT_DIFF_SEED=0x… TXKIT_DIFF_PROGRAMS=… swift test --filter DBDifferentialTests
@Suite("DB differential: MockDB against SQLiteDB on random programs")
struct DBDifferentialTests {
    @Test(arguments: [DifferentialBackend.sqliteInMemory, .sqliteFile])
    func mockDBLeavesTheSameTraceAsSQLiteDB(_ reference: DifferentialBackend) throws {
        let budget = DifferentialBudget.current
        var timing = DifferentialTiming()
        for index in 0..<budget.programs {
            var generator = ProgramGenerator(seed: SplitMix64.programSeed(budget.seed, index: index))
            let program = generator.program()
            let mock = try timing.measure(.mock) { try DifferentialCheck.trace(of: program, on: .mock) }
            let real = try timing.measure(reference) { try DifferentialCheck.trace(of: program, on: reference) }
            guard mock != real else { continue }
            let shrunk = try DifferentialCheck.shrink(program) {
                try DifferentialCheck.mismatch($0, .mock, reference) != nil
            }
            let difference = try DifferentialCheck.mismatch(shrunk, .mock, reference) ?? ""
            Issue.record(Comment(rawValue: DifferentialCheck.report(
                original: program, shrunk: shrunk, difference: difference,
                candidate: "MockDB", reference: reference.description, seed: budget.seed, index: index)))
            return
        }
        if budget.isCustom {
            print("differential: \(budget.programs) programs, MockDB against \(reference), "
                + "seed 0x\(String(budget.seed, radix: 16)): \(timing.summary(programs: budget.programs))")
        }
    }

    /// The generator covers the language: a run of the default budget
    /// makes every kind of step and op at least once (a differential run
    /// that never writes a blob proves nothing about blobs).
    @Test func theDefaultBudgetCoversTheLanguage() {
        var kinds = Set<String>()
        for index in 0..<DifferentialBudget.defaultPrograms {
            var generator = ProgramGenerator(seed: SplitMix64.programSeed(DifferentialBudget.defaultSeed, index: index))
            for step in generator.program().steps {
                kinds.formUnion(step.kinds)
            }
        }
        let expected: Set<String> = [
            "write", "writeOrRollBack", "read", "observe", "stopObserving", "useEscaped",
            "set", "get", "remove", "removeAll", "keys", "count", "insertRow", "finalization",
            "syncCompletion", "asyncCompletion", "block", "savepoint", "nested", "escape",
            "int", "bool", "double", "string", "data", "date", "codable", "value",
        ]
        #expect(expected.subtracting(kinds).isEmpty, "never generated: \(expected.subtracting(kinds).sorted())")
    }

    /// The shrinker finds a small program: a mismatch planted in the
    /// comparison (a program fails when it removes a key of "prefs" and
    /// later reads "prefs") shrinks to those two ops.
    @Test func theShrinkerReducesAPlantedMismatchToTheOpsThatCauseIt() throws {
        func fails(_ program: Program) -> Bool {
            let ops = program.steps.flatMap(\.allOps)
            guard let removal = ops.firstIndex(where: { if case .remove("prefs", _) = $0 { true } else { false } }) else {
                return false
            }
            return ops[(removal + 1)...].contains { if case .get("prefs", _, _) = $0 { true } else { false } }
        }
        var found: Program?
        for index in 0..<2_000 {
            var generator = ProgramGenerator(seed: SplitMix64.programSeed(1, index: index))
            let program = generator.program()
            if fails(program), program.size > 8 {
                found = program
                break
            }
        }
        let program = try #require(found)
        let shrunk = DifferentialCheck.shrink(program, stillFails: fails)
        #expect(fails(shrunk))
        #expect(shrunk.size <= 4, "shrunk to \(shrunk.swift)")
        #expect(shrunk.size < program.size)
    }

    /// The printed literals keep what the traces compare: every byte of a
    /// key (precomposed and decomposed "é" differ) and the extreme values.
    @Test func theSwiftLiteralSpellsEveryCharacterOfAKey() {
        #expect(swiftString("e\u{301}") == #""e\u{301}""#)
        #expect(swiftString("\u{e9}") == #""\u{e9}""#)
        #expect(swiftString("a\"b") == #""a\"b""#)
        #expect(Typed.int(.min).swift == ".int(Int.min)")
        #expect(ValueLiteral.real(-.infinity).swift == ".real(-.infinity)")
    }
}

/// Time spent per backend, for the figures a custom run prints.
struct DifferentialTiming {
    private var seconds: [String: Double] = [:]

    mutating func measure<T>(_ backend: DifferentialBackend, _ body: () throws -> T) rethrows -> T {
        let stopwatch = Stopwatch()
        defer {
            seconds[backend.description, default: 0] += stopwatch.seconds
        }
        return try body()
    }

    func summary(programs: Int) -> String {
        seconds.sorted { $0.key < $1.key }.map { name, time in
            "\(name) \(String(format: "%.1f", time)) s (\(Int(Double(programs) / max(time, 1e-9))) programs/s)"
        }.joined(separator: ", ")
    }
}

extension Step {
    /// The ops of the step, nested ones included, in program order.
    var allOps: [Op] {
        switch self {
        case let .write(ops, _), let .writeOrRollBack(ops, _), let .read(ops, _): ops.flatMap(\.allOps)
        case .observe, .stopObserving, .useEscaped: []
        }
    }

    /// The names of the step's kind and of every op and typed value in it.
    var kinds: Set<String> {
        var kinds: Set<String> = [String("\(self)".prefix { $0 != "(" })]
        for op in allOps {
            kinds.insert(String("\(op)".prefix { $0 != "(" }))
            if case let .set(_, _, typed) = op {
                kinds.insert(String("\(typed)".prefix { $0 != "(" }))
            }
        }
        return kinds
    }
}

extension Op {
    var allOps: [Op] {
        switch self {
        case let .finalization(_, ops, _), let .block(ops, _, _), let .savepoint(ops, _, _): [self] + ops.flatMap(\.allOps)
        case let .syncCompletion(_, write?): [self] + write.flatMap(\.allOps)
        default: [self]
        }
    }
}
