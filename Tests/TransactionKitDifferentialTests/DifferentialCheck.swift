import Foundation
import Testing
import TransactionKit
import TransactionKitTesting

/// Runs programs on two backends, compares their traces, and shrinks a
/// mismatch to a minimal program printed as a test case.
enum DifferentialCheck {
    /// Runs `program` on a fresh database of `backend`. The misuses the
    /// program makes on purpose are collected (not recorded as test
    /// failures) and go into the trace.
    static func trace(of program: Program, on backend: DifferentialBackend) throws -> Trace {
        let database = try backend.makeDatabase()
        defer { database.close() }
        let interpreter = ProgramInterpreter(database: database)
        let collector = MisuseCollector()
        var trace = collector.collecting {
            interpreter.run(program)
        }
        trace.misuseReports = collector.drain()
        return trace
    }

    /// The readable difference between the traces of `program` on the two
    /// backends, or `nil` when they agree.
    static func mismatch(
        _ program: Program, _ candidate: DifferentialBackend, _ reference: DifferentialBackend
    ) throws -> String? {
        let left = try trace(of: program, on: candidate)
        let right = try trace(of: program, on: reference)
        guard left != right else { return nil }
        return Trace.diff(left, right, leftName: candidate.description, rightName: reference.description)
    }

    /// Checks that `program` leaves the same trace on every backend: the
    /// body of a printed regression test.
    static func expectSameTraces(_ program: Program, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for reference in DifferentialBackend.allCases where reference != .mock {
            let difference = try mismatch(program, .mock, reference)
            #expect(difference == nil, Comment(rawValue: difference ?? ""), sourceLocation: sourceLocation)
        }
    }

    /// A minimal program that still fails `stillFails`: steps and ops are
    /// removed, blocks inlined and ends simplified, one at a time, for as
    /// long as the program keeps failing. Programs run deterministically,
    /// so each candidate is replayed from scratch.
    static func shrink(_ program: Program, stillFails: (Program) throws -> Bool) rethrows -> Program {
        var current = program
        var improved = true
        while improved {
            improved = false
            for candidate in Shrinker.candidates(current) where candidate.weight < current.weight {
                if try stillFails(candidate) {
                    current = candidate
                    improved = true
                    break
                }
            }
        }
        return current
    }

    /// The report of a mismatch: the seed to replay it, the shrunk program
    /// as a test to paste, and the difference of its traces.
    static func report(
        original: Program, shrunk: Program, difference: String,
        candidate: String, reference: String, seed: UInt64, index: Int,
        check: String = "try DifferentialCheck.expectSameTraces"
    ) -> String {
        let name = "mismatchSeed\(String(seed, radix: 16))Program\(index)"
        return """
            \(candidate) and \(reference) disagree on program \(index) of seed 0x\(String(seed, radix: 16)) \
            (replay: TXKIT_DIFF_SEED=0x\(String(seed, radix: 16)) TXKIT_DIFF_PROGRAMS=\(index + 1)); \
            shrunk from size \(original.size) to \(shrunk.size). Paste into DifferentialRegressionTests.swift:

                @Test func \(name)() async throws {
                    \(check)(\(shrunk.swift.replacingOccurrences(of: "\n", with: "\n        ")))
                }

            \(difference)
            """
    }
}

/// The budget of a run: a fixed seed and a few hundred programs under
/// `swift test`; `TXKIT_DIFF_PROGRAMS` raises the count and
/// `TXKIT_DIFF_SEED` (decimal, or hex with `0x`) replays a seed. A raised
/// budget without a seed takes a new one, printed for replay.
struct DifferentialBudget: Sendable {
    static let defaultSeed: UInt64 = 0x7478_6B69_7464_6966
    static let defaultPrograms = 300

    let seed: UInt64
    let programs: Int
    /// Whether the environment asked for this budget (then the run prints
    /// its seed and its speed).
    let isCustom: Bool

    /// The budget the environment asks for; one seed for the whole run.
    static let current: DifferentialBudget = {
        let environment = ProcessInfo.processInfo.environment
        let programs = environment["TXKIT_DIFF_PROGRAMS"].flatMap { Int($0) }
        let seed = environment["TXKIT_DIFF_SEED"].flatMap(parseSeed)
        return DifferentialBudget(
            seed: seed ?? (programs == nil ? defaultSeed : UInt64.random(in: 1...UInt64.max)),
            programs: programs ?? defaultPrograms,
            isCustom: programs != nil || seed != nil)
    }()

    static func parseSeed(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }
}
