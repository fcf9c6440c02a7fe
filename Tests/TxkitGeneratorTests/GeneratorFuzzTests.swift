#if Txkit
import Foundation
import Testing

/// The generator fuzzer: random legacy apps from a grammar of real
/// data-access shapes, with the compiler, the program's own results and
/// its ground truth as the oracle (see ``FuzzHarness``).
///
/// `TXKIT_FUZZ_PROGRAMS` (default 3) and `TXKIT_FUZZ_SEED` (default 38)
/// set the run (`TXKIT_FUZZ_ONLY=n` replays its program n alone);
/// `TXKIT_FUZZ_BATCH` (default 100) programs share one scratch package
/// build, so that a long run is a sequence of batches whose reports are
/// summed (program i is the same whatever the batch size);
/// `TXKIT_FUZZ_SHRINK` (default 4) is how many smaller programs are tried
/// per failure. A failure prints its seed and its shrunk program, ready to
/// paste as a fixture.
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
                        // Only an async consumer awaits; it holds only Sendable finders.
                        let finder = candidate.finders[method.finder]
                        #expect(consumer.isAsync || !finder.members[method.member].isAsync)
                        #expect(!consumer.isAsync || finder.kind.isSendable)
                        #expect(consumer.isAsync || !(method.readsLabel && finder.isolatedLabel))
                    }
                }
                for finder in candidate.finders {
                    #expect(finder.superclass != nil || !finder.members.contains { $0.placement == .superclass })
                    #expect(finder.conformsToQueries || !finder.members.contains { $0.placement == .protocolExtension })
                }
            }
        }
    }

    /// Each shape of the grammar is called by some consumer within a few
    /// hundred programs: async members awaited by async consumers, actors,
    /// members of a superclass or of a protocol extension, optional
    /// legacy transaction parameters.
    @Test func generatorFuzzGrammarReachesEveryShape() {
        var shapes: Set<String> = []
        for seed in UInt64(0)..<300 {
            shapes.formUnion(FuzzProgram.random(module: "P0", seed: seed).calledShapes)
        }
        #expect(shapes == ["async member", "actor", "awaited actor-isolated property", "superclass member", "superclass in its own file",
                           "protocol extension member", "optional transaction"])
    }

    @Test func generatorFuzz() async throws {
        let count = Int(Self.environment["TXKIT_FUZZ_PROGRAMS"] ?? "") ?? 3
        let seed = UInt64(Self.environment["TXKIT_FUZZ_SEED"] ?? "") ?? 38
        let budget = Int(Self.environment["TXKIT_FUZZ_SHRINK"] ?? "") ?? 4
        // TXKIT_FUZZ_ONLY=12: program 12 of the run alone, to replay it.
        let only = Int(Self.environment["TXKIT_FUZZ_ONLY"] ?? "")
        let batch = max(1, Int(Self.environment["TXKIT_FUZZ_BATCH"] ?? "") ?? 100)
        let indices = (0..<count).filter { only == nil || $0 == only }
        let harness = FuzzHarness()
        let start = Date()
        var report = FuzzHarness.Report()
        for first in stride(from: 0, to: indices.count, by: batch) {
            let programs = indices[first..<min(first + batch, indices.count)].map { index in
                FuzzProgram.random(module: "P\(index)", seed: FuzzRandom.programSeed(seed, index: index))
            }
            // The builds run on a thread of their own (see OwnThread).
            let part = try await OwnThread.run { try harness.run(programs) }
            report.absorb(part)
            if indices.count > batch {
                print("GeneratorFuzz batch at program \(indices[first]): \(part.summary.prefix(while: { $0 != "\n" })), "
                    + "\(Int(Date().timeIntervalSince(start))) s")
            }
        }
        print("GeneratorFuzz seed \(seed), \(count) programs, \(Int(Date().timeIntervalSince(start))) s")
        print(report.summary)
        for failure in report.failures {
            let shrunk = try await OwnThread.run { try harness.shrink(failure, budget: budget) }
            let message = """
                GeneratorFuzz failure (\(failure.kind.rawValue)), TXKIT_FUZZ_SEED=\(seed), \(failure.program)\
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

extension FuzzHarness.Report {
    /// Adds the figures of another batch's report to this one.
    mutating func absorb(_ other: Self) {
        programs += other.programs
        pairs += other.pairs
        applied += other.applied
        refusedPairs += other.refusedPairs
        refusals.merge(other.refusals, uniquingKeysWith: +)
        mocksCompiled += other.mocksCompiled
        mockTestsPassed += other.mockTestsPassed
        mockTestsSkipped.merge(other.mockTestsSkipped, uniquingKeysWith: +)
        conversions += other.conversions
        conversionsApplied += other.conversionsApplied
        conversionsRefused += other.conversionsRefused
        conversionRefusals.merge(other.conversionRefusals, uniquingKeysWith: +)
        failures += other.failures
        calledShapes.merge(other.calledShapes, uniquingKeysWith: +)
    }
}
#endif
