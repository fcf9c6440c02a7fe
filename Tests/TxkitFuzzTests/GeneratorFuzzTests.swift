#if Txkit
import Foundation
import Testing
import TxkitGenerator
import TxkitGeneratorTestSupport

/// The generator fuzzer: random legacy apps from a grammar of real
/// data-access shapes, with the compiler, the program's own results and
/// its ground truth as the oracle (see ``FuzzHarness``).
///
/// The run itself, `generatorFuzz()`, runs when `TXKIT_FUZZ_SEED` is set
/// (CI's fuzz stage sets the commit's; the test command skips it, and the
/// harness's own tests above run there). `TXKIT_FUZZ_PROGRAMS` (default 3)
/// sets its size (`TXKIT_FUZZ_ONLY=n` replays its program n alone, `n,m` those two);
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

    /// A refusal the generator makes of a shape the grammar writes is
    /// counted under its cause, not as a crash of the oracle: here an
    /// actor finder's isolated method that takes the connection, awaited
    /// by an async consumer.
    @Test func generatorFuzzCountsARefusalUnderItsCause() throws {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [.init(type: "Database", transaction: .infer, bridge: "try SQLiteDB.shimOnlyBridge($tx)")]
        let generator = try Generator(configuration: configuration, sources: SourceSet(sources: [
            (path: "TaskStore.swift", text: """
                import GRDB
                actor TaskStore {
                    var label: String { "TaskStore" }
                    func count(_ db: Database) async throws -> Int { 0 }
                }
                """),
            (path: "ProfileService.swift", text: """
                import TransactionKit
                import TransactionKitSQLite
                final class ProfileService: Sendable {
                    let db: any AsyncDB
                    let taskStore: TaskStore
                    init(db: any AsyncDB, taskStore: TaskStore) { self.db = db; self.taskStore = taskStore }
                    func m1() async throws -> String {
                        try await db.read { tx in
                            await taskStore.label + String(try await taskStore.count(try SQLiteDB.shimOnlyBridge(tx)))
                        }
                    }
                }
                """),
        ]))
        let error = #expect(throws: GeneratorError.self) { try generator.shim(consumer: "ProfileService", legacy: "TaskStore") }
        #expect(FuzzHarness.causes(of: try #require(error)) == ["member isolated to an actor finder"])
    }

    /// The fast pass (every step at once, one build) hands a program back,
    /// as it was, to the rounds that find the step at fault, when the build
    /// fails or the program returns other results; a program whose steps
    /// all succeed keeps them.
    @Test func generatorFuzzAllAtOnceHandsBackFailingPrograms() async throws {
        let harness = FuzzHarness()
        let programs = (0..<3).map { FuzzProgram.random(module: "P\($0)", seed: FuzzRandom.programSeed(41, index: $0)) }
        let (passed, retry, restored) = try await OwnThread.run { () -> ([String], [String], Bool) in
            try harness.write(programs)
            #expect(try harness.build().succeeded)
            var baseline: [String: [String]] = [:]
            for program in programs { baseline[program.module] = try harness.results(of: program) }
            let starts = programs.map { harness.snapshot($0) }
            func append(_ text: String, to path: String, in program: FuzzProgram) throws {
                let file = harness.root(of: program) + "/" + path
                let old = try String(contentsOfFile: file, encoding: .utf8)
                try FuzzHarness.write(old + text, to: file)
            }
            let work = [
                // P0: the second step breaks the build.
                FuzzHarness.Steps(program: programs[0], steps: ["comment", "break", "comment"]),
                // P1: a step changes what the program prints.
                FuzzHarness.Steps(program: programs[1], steps: ["comment", "print"]),
                // P2: a refused step, then one that succeeds.
                FuzzHarness.Steps(program: programs[2], steps: ["refuse", "comment"]),
            ]
            var refusals: [String] = []
            let pass = try harness.applyAllAtOnce(
                work, baseline: baseline,
                apply: { step, program in
                    switch step {
                    case "comment": try append("\n// a step\n", to: "Sources/App/Entry.swift", in: program)
                    case "break": try append("\nlet broken: Int = \"not an Int\"\n", to: "Sources/App/Entry.swift", in: program)
                    case "print":
                        let file = harness.root(of: program) + "/Sources/App/Entry.swift"
                        let entry = try String(contentsOfFile: file, encoding: .utf8)
                        try FuzzHarness.write(
                            entry.replacingOccurrences(of: "var lines: [String] = []", with: "var lines: [String] = [\"one more line\"]"),
                            to: file)
                    default: throw FuzzHarnessError(message: "refused")
                    }
                },
                refused: { step, program, _ in refusals.append("\(program.module) \(step)") })
            #expect(refusals == ["P2 refuse"])
            #expect(pass.retry.map(\.steps) == [["comment", "break", "comment"], ["comment", "print"]])
            let restored = zip(programs, starts).prefix(2).allSatisfy { harness.snapshot($0) == $1 }
            return (pass.passed.map(\.program.module), pass.retry.map(\.program.module), restored)
        }
        #expect(passed == ["P2"])
        #expect(retry == ["P0", "P1"])
        #expect(restored, "the programs handed back are as they were before the fast pass")
    }

    @Test(.enabled(if: environment["TXKIT_FUZZ_SEED"] != nil, "runs with TXKIT_FUZZ_SEED set (Scripts/ci/fuzz.sh)"))
    func generatorFuzz() async throws {
        let count = Int(Self.environment["TXKIT_FUZZ_PROGRAMS"] ?? "") ?? 3
        let seed = try #require(UInt64(Self.environment["TXKIT_FUZZ_SEED"] ?? ""), "TXKIT_FUZZ_SEED is a number")
        let budget = Int(Self.environment["TXKIT_FUZZ_SHRINK"] ?? "") ?? 4
        // TXKIT_FUZZ_ONLY=12: program 12 of the run alone, to replay it
        // (`12,40,41`: those programs, built together).
        let only = Self.environment["TXKIT_FUZZ_ONLY"].map { Set($0.split(separator: ",").compactMap { Int($0) }) }
        let batch = max(1, Int(Self.environment["TXKIT_FUZZ_BATCH"] ?? "") ?? 100)
        let indices = (0..<count).filter { only?.contains($0) ?? true }
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
                // Its failures and refusals too (`swift test` passes them on when the test ends).
                let details = part.summary.split(separator: "\n").dropFirst()
                    .filter { $0.contains("FAILURE") || $0.contains("refused for") }
                print("GeneratorFuzz batch at program \(indices[first]): \(part.summary.prefix(while: { $0 != "\n" })), "
                    + "\(Int(Date().timeIntervalSince(start))) s" + details.map { "\n" + $0 }.joined())
                fflush(nil)
            }
        }
        print("GeneratorFuzz seed \(seed), \(count) programs, \(Int(Date().timeIntervalSince(start))) s")
        print(report.summary)
        print(harness.clock.summary)
        // Standard output is a file in CI: its buffer would be lost at exit.
        fflush(nil)
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
            fflush(nil)
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
        migrateTypes += other.migrateTypes
        migrated += other.migrated
        alreadyMigrated += other.alreadyMigrated
        migrateRefused += other.migrateRefused
        migrateRefusals.merge(other.migrateRefusals, uniquingKeysWith: +)
        migrateRefusalPrograms.merge(other.migrateRefusalPrograms, uniquingKeysWith: +)
        migrateMethods += other.migrateMethods
        migrateMethodsRun += other.migrateMethodsRun
        migrateMethodsSkipped.merge(other.migrateMethodsSkipped, uniquingKeysWith: +)
        failures += other.failures
        calledShapes.merge(other.calledShapes, uniquingKeysWith: +)
    }
}
#endif
