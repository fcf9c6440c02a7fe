#if Txkit
import Foundation
import Testing

/// The generator fuzzer: random legacy apps from a grammar of real
/// data-access shapes, with the compiler, the program's own results and
/// its ground truth as the oracle (see ``FuzzHarness``).
///
/// `TXKIT_FUZZ_PROGRAMS` (default 3) and `TXKIT_FUZZ_SEED` (default 38)
/// set the run (`TXKIT_FUZZ_ONLY=n` replays its program n alone); `TXKIT_FUZZ_SHRINK` (default 4) is how many smaller
/// programs are tried per failure. A failure prints its seed and its
/// shrunk program, ready to paste as a fixture.
@Suite("GeneratorFuzz", .serialized)
struct GeneratorFuzzTests {
    static let environment = ProcessInfo.processInfo.environment

    @Test func generatorFuzzProgramsAreDeterministic() {
        let first = FuzzProgram.random(module: "P0", seed: 7)
        #expect(first == FuzzProgram.random(module: "P0", seed: 7))
        #expect(first.files == FuzzProgram.random(module: "P0", seed: 7).files)
        #expect(!first.pairs.isEmpty)
    }

    @Test func generatorFuzzShrinkingKeepsProgramsConsistent() {
        for seed in UInt64(0)..<50 {
            for candidate in FuzzProgram.random(module: "P0", seed: seed).shrinkCandidates() {
                for consumer in candidate.consumers {
                    for method in consumer.methods {
                        #expect(consumer.accesses[method.finder] != nil)
                        #expect(candidate.finders[method.finder].members.indices.contains(method.member))
                    }
                }
            }
        }
    }

    @Test func generatorFuzz() async throws {
        let count = Int(Self.environment["TXKIT_FUZZ_PROGRAMS"] ?? "") ?? 3
        let seed = UInt64(Self.environment["TXKIT_FUZZ_SEED"] ?? "") ?? 38
        let budget = Int(Self.environment["TXKIT_FUZZ_SHRINK"] ?? "") ?? 4
        // TXKIT_FUZZ_ONLY=12: program 12 of the run alone, to replay it.
        let only = Int(Self.environment["TXKIT_FUZZ_ONLY"] ?? "")
        let programs = (0..<count).filter { only == nil || $0 == only }.map {
            FuzzProgram.random(module: "P\($0)", seed: FuzzRandom.programSeed(seed, index: $0))
        }
        let harness = FuzzHarness()
        let start = Date()
        // The builds run on a thread of their own (see OwnThread).
        let report = try await OwnThread.run { try harness.run(programs) }
        print("GeneratorFuzz seed \(seed), \(count) programs, \(Int(Date().timeIntervalSince(start))) s")
        print(report.summary)
        for failure in report.failures {
            let shrunk = try await OwnThread.run { try harness.shrink(failure, budget: budget) }
            let message = """
                GeneratorFuzz failure (\(failure.kind.rawValue)), TXKIT_FUZZ_SEED=\(seed), program \(failure.program)\
                \(failure.pair.map { ", pair \($0.consumer)/\($0.legacy)" } ?? ""):
                \(failure.detail)
                Shrunk program:
                \(shrunk.fixture)
                """
            print(message)
            Issue.record(Comment(rawValue: message))
        }
    }
}
#endif
