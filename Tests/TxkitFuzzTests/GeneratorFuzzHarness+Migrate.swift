#if Txkit
import Foundation
@testable import TxkitGenerator

/// The migrate oracle: each program as it was written (before the shim and
/// conversion rounds) gets `txkit migrate` of every consumer and service,
/// in a random order; then the program builds, prints what it printed
/// before and never traps, each migrated type's own file names nothing of
/// GRDB nor the program's holders and legacy transactions, and a generated
/// `MockDB` test per method constructs the migrated type with `MockDB()`
/// and its mocks, stubs every mock member and runs the method without a
/// misuse (see ``migrateTests(of:outcomes:)``).
extension FuzzHarness {
    /// What `txkit migrate` did to one type.
    enum MigrationOutcome: Equatable {
        case migrated
        /// It consumed only the abstractions already.
        case already
        /// Refused, with the causes as the report counts them.
        case refused([String])
    }

    /// The migrate oracle on `live` programs (which built, with their
    /// `baseline` results); `originals` are their files as written.
    func runMigrations(
        _ live: [FuzzProgram], originals: [String: [String: Data]], baseline: [String: [String]], report: inout Report
    ) throws {
        var outcomes: [String: [String: MigrationOutcome]] = [:]
        var migratedPrograms: [FuzzProgram] = []
        for program in live {
            try restore(program, to: originals[program.module] ?? [:])
            var programOutcomes: [String: MigrationOutcome] = [:]
            var crashed = false
            for type in Self.migrationOrder(of: program) {
                switch migrateType(type, in: program) {
                case let .success(outcome):
                    programOutcomes[type] = outcome
                case let .failure(error):
                    report.failures.append(Failure(kind: .migrate, program: program, pair: (type, "migrate"), detail: "crash: \(error)"))
                    crashed = true
                }
            }
            report.migrateTypes += program.migratableTypes.count
            outcomes[program.module] = programOutcomes
            for (type, outcome) in programOutcomes.sorted(by: { $0.key < $1.key }) {
                switch outcome {
                case .migrated: report.migrated += 1
                case .already: report.alreadyMigrated += 1
                case let .refused(causes):
                    report.migrateRefused += 1
                    for cause in causes {
                        report.migrateRefusals[cause, default: 0] += 1
                        report.migrateRefusalPrograms[cause, default: []].append("\(program.module) \(type)")
                    }
                }
            }
            if crashed {
                try restore(program, to: originals[program.module] ?? [:])
                outcomes[program.module] = [:]
            } else {
                migratedPrograms.append(program)
            }
        }
        // Residue: a migrated type's own file names no GRDB type, no holder, no legacy transaction.
        for program in migratedPrograms {
            for (type, outcome) in (outcomes[program.module] ?? [:]).sorted(by: { $0.key < $1.key })
            where outcome == .migrated || outcome == .already {
                let path = "\(root(of: program))/Sources/App/\(type).swift"
                let source = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                let residue = Self.legacyNames(in: source, program: program)
                if !residue.isEmpty {
                    report.failures.append(Failure(
                        kind: .migrate, program: program, pair: (type, "residue"),
                        detail: "\(type).swift still names \(residue.joined(separator: ", ")) after migrate (\(outcome))"))
                }
            }
        }
        // The MockDB tests, built with the migrated programs.
        var tests: [String: (program: FuzzProgram, test: MockTest)] = [:]
        for program in live {
            report.migrateMethods += program.consumers.map(\.methods.count).reduce(0, +)
                + program.services.map(\.methods.count).reduce(0, +)
        }
        for program in live {
            let programTests = migrateTests(of: program, outcomes: outcomes[program.module] ?? [:])
            for test in programTests {
                if let skipped = test.skipped {
                    report.migrateMethodsSkipped[skipped, default: 0] += 1
                } else {
                    tests[test.name] = (program, test)
                }
            }
            if programTests.contains(where: { $0.body != nil }) {
                try Self.write(migrateTestFile(program, tests: programTests), to: root(of: program) + "/" + migrateTestPath(program))
            }
        }
        defer {
            for program in live {
                try? FileManager.default.removeItem(atPath: root(of: program) + "/" + migrateTestPath(program))
            }
        }
        var broken: Set<String> = []
        var outcome = try build()
        while !outcome.succeeded {
            let named = Self.programsNamed(in: outcome, among: live.filter { !broken.contains($0.module) })
            guard !named.isEmpty else {
                throw FuzzHarnessError(message: "the migrated programs do not build: \(outcome.failureSummary(limit: 10))")
            }
            for (module, errors) in named {
                broken.insert(module)
                guard let program = live.first(where: { $0.module == module }) else { continue }
                let testFile = migrateTestPath(program)
                if errors.allSatisfy({ $0.contains(testFile) }) {
                    for (_, entry) in tests where entry.program.module == module {
                        report.failures.append(Failure(
                            kind: .migrateMockTest, program: program, pair: (entry.test.consumer, entry.test.method),
                            detail: "the MockDB test does not build:\n" + errors.joined(separator: "\n")))
                    }
                } else {
                    let migrated = (outcomes[module] ?? [:]).filter { $0.value == .migrated }.keys.sorted()
                    report.failures.append(Failure(
                        kind: .migrate, program: program, pair: (migrated.joined(separator: ","), "build"),
                        detail: "after migrate of \(migrated): the program does not build:\n" + errors.joined(separator: "\n")))
                    try restore(program, to: originals[module] ?? [:])
                }
                try? FileManager.default.removeItem(atPath: root(of: program) + "/" + testFile)
            }
            outcome = try build()
        }
        // The same results, no trap.
        for program in migratedPrograms where !broken.contains(program.module) {
            let after = try results(of: program)
            if after != baseline[program.module] {
                report.failures.append(Failure(
                    kind: .migrate, program: program, pair: ("all", "behaviour"),
                    detail: "before: \(baseline[program.module] ?? [])\nafter:  \(after)"))
            }
        }
        guard tests.contains(where: { !broken.contains($0.value.program.module) }) else { return }
        let live = tests.filter { !broken.contains($0.value.program.module) }
        let (results, output) = try migrateTestResults(Dictionary(grouping: live.keys) { live[$0]!.program.module })
        for (name, entry) in tests.sorted(by: { $0.key < $1.key }) where !broken.contains(entry.program.module) {
            switch results[name] {
            case .some(nil):
                report.migrateMethodsRun += 1
            case let .some(issues?):
                report.failures.append(Failure(
                    kind: .migrateMockTest, program: entry.program, pair: (entry.test.consumer, entry.test.method), detail: issues))
            case nil where results.contains { $0.key.hasPrefix(entry.program.module + "_") && $0.value?.hasPrefix(Self.trapPrefix) == true }:
                report.migrateMethodsSkipped["not run: another test of its program trapped", default: 0] += 1
            case nil:
                report.failures.append(Failure(
                    kind: .migrateMockTest, program: entry.program, pair: (entry.test.consumer, entry.test.method),
                    detail: "no result: " + ((results["(test process)"] ?? nil) ?? String(output.suffix(1500)))))
            }
        }
    }

    /// The results of the MockDB tests, named by program: all in one test
    /// process; when a test traps, which ends it, each program whose tests
    /// did not all end runs again alone, so that a trap leaves only its own
    /// program's tests without a result.
    private func migrateTestResults(_ names: [String: [String]]) throws -> (results: [String: String?], output: String) {
        var (results, output) = try runTests()
        guard results.values.contains(where: { $0?.hasPrefix(Self.trapPrefix) == true }) else { return (results, output) }
        for (module, tests) in names.sorted(by: { $0.key < $1.key }) {
            let ended = tests.allSatisfy { name in results[name].map { $0?.hasPrefix(Self.trapPrefix) != true } ?? false }
            if ended { continue }
            let (alone, aloneOutput) = try runTests(filter: "\(module)_MigrateTests")
            for name in tests { results[name] = alone[name] }
            output += "\n" + aloneOutput
        }
        return (results, output)
    }

    /// How ``runTests(filter:)`` reports a test that was running when its process ended.
    static let trapPrefix = "running when the test process ended"

    /// The program's consumers and services in a random order of its seed.
    static func migrationOrder(of program: FuzzProgram) -> [String] {
        var random = FuzzRandom(seed: program.seed ^ 0x6D69_6772_6174_6521)
        var types = program.migratableTypes
        for index in types.indices.reversed() where index > 0 {
            types.swapAt(index, random.below(index + 1))
        }
        return types
    }

    /// `txkit migrate TYPE`, in process: its outcome, or the error that
    /// is not a refusal (a crash).
    func migrateType(_ type: String, in program: FuzzProgram) -> Result<MigrationOutcome, FuzzHarnessError> {
        clock.measure(.txkit) {
            let root = root(of: program)
            do {
                let generator = try Generator(root: root, configuration: GeneratorConfiguration.load(from: root))
                let output = try generator.migrate(consumer: type)
                if output.isAlreadyMigrated { return .success(.already) }
                try generator.changes(files: output.files, edits: output.edits).write()
                log("migrated \(program.module) \(type)")
                return .success(.migrated)
            } catch let error as GeneratorError where !error.refusals.isEmpty {
                log("migrate refused \(program.module) \(type): \(error)")
                return .success(.refused(Array(Set(error.refusals.map { Self.migrateCause(of: $0.reason) })).sorted()))
            } catch {
                return .failure(FuzzHarnessError(message: "\(error)"))
            }
        }
    }

    /// A refusal's reason without the names of the program it was met in.
    static func migrateCause(of reason: String) -> String {
        var text = reason
        for name in ["TaskStore", "UserFinder", "OrderRecords", "ItemTable", "NoteRepository", "TagStore",
                     "TaskManager", "ProfileService", "OrderManager", "SyncController", "ReportBuilder"]
            + FuzzProgram.serviceNames {
            text = text.replacingOccurrences(of: name, with: "T")
        }
        text = text.replacingOccurrences(of: #"\bm[0-9]+\b"#, with: "m", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\bP[0-9]+\b"#, with: "P", options: .regularExpression)
        return String(text.prefix(160))
    }

    /// GRDB's names, the program's holders and legacy transactions, that
    /// a migrated type's code still names (comments and strings left out;
    /// its generated namespaces' members, `Shims.Database`, are its own).
    static func legacyNames(in source: String, program: FuzzProgram) -> [String] {
        let source = source.replacingOccurrences(
            of: #"\b(Shims|Wrappers|Mocks)\.[A-Za-z_][A-Za-z0-9_]*"#, with: "$1", options: .regularExpression)
        var forbidden: Set<String> = [
            "GRDB", "Database", "DatabasePool", "DatabaseQueue", "DatabaseWriter", "DatabaseReader", "Row", "Column",
            "StatementArguments", "FetchableRecord", "PersistableRecord", "MutablePersistableRecord", "SQLRequest",
            "AppDatabase", "Storage", "PoolActor", "AppEnvironment", "DBConn", "DBWriteConn", "ReadConnection",
            "WriteConnection", "shimOnlyBridge",
        ]
        if program.legacyTransaction == .appTransactions {
            forbidden.formUnion(["AppReadTransaction", "AppWriteTransaction"])
        }
        return Array(Set(identifiers(in: source)).intersection(forbidden)).sorted()
    }

    /// The identifiers of Swift code, without its comments and string literals.
    static func identifiers(in source: String) -> [String] {
        var code = ""
        var index = source.startIndex
        var inString = false
        while index < source.endIndex {
            let rest = source[index...]
            if !inString && rest.hasPrefix("//") {
                index = rest.firstIndex(of: "\n") ?? source.endIndex
                continue
            }
            let character = source[index]
            if character == "\\" && inString {
                index = source.index(after: index)
                if index < source.endIndex { index = source.index(after: index) }
                continue
            }
            if character == "\"" { inString.toggle() }
            if !inString && character != "\"" { code.append(character) } else { code.append(" ") }
            index = source.index(after: index)
        }
        return code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init).filter { $0.first?.isNumber == false }
    }
}
#endif
