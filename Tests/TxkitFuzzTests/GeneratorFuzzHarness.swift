#if Txkit
import Foundation
import TxkitGenerator
import TxkitGeneratorTestSupport

/// Runs the fuzzer's oracle on programs, all in ONE scratch package (a
/// module and a test target per program, one runner for all) that depends on this
/// checkout by path: it compiles, `inventory` reports the ground truth,
/// and after `shim --apply` of each pair the package compiles and every
/// consumer method returns what it returned before (all pairs of a
/// program at once, then one pair per program per round for a program that
/// fails: see ``applyAllAtOnce(_:baseline:apply:refused:)``).
///
/// The scratch package lives in a fixed temporary folder, so that GRDB and
/// TransactionKit are built once for every run on a machine.
struct FuzzHarness {
    /// What a run found.
    struct Report {
        var programs = 0
        var pairs = 0
        var applied = 0
        /// Refusals of `shim --apply`, by cause.
        /// Pairs refused, by cause (a pair refused for two causes counts
        /// under each).
        var refusals: [String: Int] = [:]
        var refusedPairs = 0
        /// Generated mocks of applied pairs, compiled in their program's test target.
        var mocksCompiled = 0
        /// Consumer methods whose MockDB test passed.
        var mockTestsPassed = 0
        /// Consumer methods without a MockDB test, by why.
        var mockTestsSkipped: [String: Int] = [:]
        /// `convert --apply` of each finder after the shim rounds.
        var conversions = 0
        var conversionsApplied = 0
        var conversionsRefused = 0
        /// Refused conversions, by cause (a conversion refused for two
        /// causes counts under each).
        var conversionRefusals: [String: Int] = [:]
        /// The migrate oracle: consumers and services, and what `txkit
        /// migrate` did to each.
        var migrateTypes = 0
        var migrated = 0
        var alreadyMigrated = 0
        var migrateRefused = 0
        /// Refused types, by cause (a type refused for two causes counts under each).
        var migrateRefusals: [String: Int] = [:]
        /// Where each cause of refusal was met first (`P12 TaskManager`), to replay it.
        var migrateRefusalPrograms: [String: [String]] = [:]
        /// Methods of the consumers and services, and those a generated
        /// MockDB test ran on the migrated type.
        var migrateMethods = 0
        var migrateMethodsRun = 0
        /// Methods without a migrate MockDB test, by why.
        var migrateMethodsSkipped: [String: Int] = [:]
        var failures: [Failure] = []
        /// Consumer methods of the programs that built, by newer shape of
        /// the grammar they call (``FuzzProgram/calledShapes``).
        var calledShapes: [String: Int] = [:]

        var summary: String {
            var lines = ["GeneratorFuzz: \(programs) programs, \(pairs) pairs: \(applied) applied, \(refusedPairs) refused, \(failures.count) failures"]
            if !calledShapes.isEmpty {
                lines.append("  methods calling: " + calledShapes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            }
            for (cause, count) in refusals.sorted(by: { $0.value > $1.value || $0.value == $1.value && $0.key < $1.key }) {
                lines.append("  pairs refused for \(cause): \(count)")
            }
            let tested = mockTestsPassed + failures.filter { $0.kind == .mockTest }.count
            lines.append("  mocks compiled: \(mocksCompiled); MockDB tests: \(tested) written, \(mockTestsPassed) passed, "
                + "\(mockTestsSkipped.values.reduce(0, +)) methods without one")
            for (reason, count) in mockTestsSkipped.sorted(by: { $0.value > $1.value || $0.value == $1.value && $0.key < $1.key }) {
                lines.append("  methods without a MockDB test, \(reason): \(count)")
            }
            lines.append("  conversions: \(conversions) finders: \(conversionsApplied) applied, \(conversionsRefused) refused")
            for (cause, count) in conversionRefusals.sorted(by: { $0.value > $1.value || $0.value == $1.value && $0.key < $1.key }) {
                lines.append("  conversions refused for \(cause): \(count)")
            }
            if migrateTypes > 0 {
                let percent = { (part: Int, whole: Int) in whole == 0 ? "-" : String(format: "%.1f %%", 100 * Double(part) / Double(whole)) }
                lines.append("  migrate: \(migrateTypes) consumers and services: \(migrated) migrated, \(alreadyMigrated) already, "
                    + "\(migrateRefused) refused (\(percent(migrated + alreadyMigrated, migrateTypes)) migrated); "
                    + "methods run by a MockDB test: \(migrateMethodsRun) of \(migrateMethods) (\(percent(migrateMethodsRun, migrateMethods)))")
                for (cause, count) in migrateRefusals.sorted(by: { $0.value > $1.value || $0.value == $1.value && $0.key < $1.key }) {
                    let programs = (migrateRefusalPrograms[cause] ?? []).prefix(3).joined(separator: ", ")
                    lines.append("  migrate refused for \(cause): \(count)" + (programs.isEmpty ? "" : " (\(programs))"))
                }
                for (reason, count) in migrateMethodsSkipped.sorted(by: { $0.value > $1.value || $0.value == $1.value && $0.key < $1.key }) {
                    lines.append("  methods without a migrate MockDB test, \(reason): \(count)")
                }
            }
            for failure in failures {
                lines.append("  FAILURE \(failure.kind.rawValue) \(failure.program) \(failure.pair.map { "\($0.consumer)/\($0.legacy)" } ?? ""): \(failure.detail.prefix(600))")
            }
            return lines.joined(separator: "\n")
        }
    }

    struct Failure {
        enum Kind: String {
            /// The program as written does not build or run: a fuzzer bug.
            case program
            /// `inventory` differs from the ground truth.
            case inventory
            /// txkit threw something other than a refusal.
            case crash
            /// The package no longer builds after `shim --apply`.
            case build
            /// A consumer method returns something else after `shim --apply`.
            case behaviour
            /// A generated MockDB test of a migrated consumer does not
            /// build or fails (it reached `shimOnlyBridge`, or the mocks
            /// were not called); the pair is (consumer, method).
            case mockTest
            /// After `convert --apply` of a finder the package does not
            /// build, or a consumer method returns something else, or
            /// convert crashed; the pair is ("convert", finder).
            case convert
            /// After `txkit migrate` of every consumer and service of the
            /// program as written: migrate crashed, the program does not
            /// build or returns other results or traps, or a migrated
            /// type's file still names GRDB or a legacy type.
            case migrate
            /// A migrate oracle's MockDB test does not build or fails; the
            /// pair is (type, method).
            case migrateMockTest
        }

        var kind: Kind
        var program: FuzzProgram
        var pair: (consumer: String, legacy: String)?
        var detail: String
    }

    let scratch: String
    let checkout: String
    /// Time spent per phase, over every run of this harness.
    let clock = FuzzClock()
    /// `TXKIT_FUZZ_VERBOSE=1`: every step on standard output.
    let verbose = ProcessInfo.processInfo.environment["TXKIT_FUZZ_VERBOSE"] != nil

    func log(_ text: @autoclosure () -> String) {
        if verbose { print("GeneratorFuzz: \(text())") }
    }

    /// `scratch`: by default a folder per checkout (`txkit-generator-fuzz-<checkout's folder name>`),
    /// so that two worktrees fuzzing at once do not share a scratch package.
    init(scratch: String? = nil, checkout: String = RepositoryPaths.root) {
        let name = "txkit-generator-fuzz-" + (checkout as NSString).lastPathComponent
        let scratch = scratch ?? FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        self.scratch = scratch
        self.checkout = checkout
    }

    func root(of program: FuzzProgram) -> String { "\(scratch)/Programs/\(program.module)" }

    // MARK: The scratch package

    /// Writes `programs` (and only them) into the scratch package.
    func write(_ programs: [FuzzProgram]) throws {
        let manager = FileManager.default
        try? manager.removeItem(atPath: scratch + "/Programs")
        var targets: [String] = []
        for program in programs {
            for (path, text) in program.files {
                try Self.write(text, to: root(of: program) + "/" + path)
            }
            let m = program.module
            targets.append("""
                        .target(name: "\(m)", dependencies: [tk, tkSQLite, grdb], path: "Programs/\(m)/Sources/App", exclude: []),
                        .testTarget(name: "\(m)Tests", dependencies: ["\(m)", tk, tkTesting], path: "Programs/\(m)/Tests"),
                """)
        }
        // One runner for every program: one link per build instead of one
        // per program (each links GRDB and TransactionKit).
        let modules = programs.map(\.module)
        let runner = Self.runner(modules)
        if (try? String(contentsOfFile: scratch + "/Runner/main.swift", encoding: .utf8)) != runner {
            try Self.write(runner, to: scratch + "/Runner/main.swift")
        }
        targets.append("""
                    .executableTarget(name: "FuzzRun", dependencies: [\(modules.map { "\"\($0)\"" }.joined(separator: ", "))], path: "Runner"),
            """)
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription

            // Written by GeneratorFuzzTests: random legacy apps, one module each.
            let tk: Target.Dependency = .product(name: "TransactionKit", package: "TransactionKit")
            let tkSQLite: Target.Dependency = .product(name: "TransactionKitSQLite", package: "TransactionKit")
            let tkTesting: Target.Dependency = .product(name: "TransactionKitTesting", package: "TransactionKit")
            let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")

            let package = Package(
                name: "GeneratorFuzzScratch",
                platforms: [.macOS(.v15)],
                dependencies: [
                    .package(name: "TransactionKit", path: "\(checkout)"),
                    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
                ],
                targets: [
            \(targets.joined(separator: "\n"))
                ],
                swiftLanguageModes: [.v6]
            )

            """
        let path = scratch + "/Package.swift"
        if (try? String(contentsOfFile: path, encoding: .utf8)) != manifest {
            try Self.write(manifest, to: path)
        }
    }

    /// The runner's `main.swift`: `FuzzRun <module> <database>` prints what
    /// that program's `FuzzEntry.results(path:)` returns. (Each program's
    /// own `Sources/Run/main.swift`, which does the same alone, stays in its
    /// files for a fixture but is not built here.)
    static func runner(_ modules: [String]) -> String {
        var lines = modules.map { "import \($0)" }
        lines += [
            "",
            "let module = CommandLine.arguments[1], path = CommandLine.arguments[2]",
            "let lines: [String]",
            "switch module {",
        ]
        lines += modules.map { "case \"\($0)\": lines = await \($0).FuzzEntry.results(path: path)" }
        lines += ["default: fatalError(\"no program \\(module)\")", "}", "for line in lines { print(line) }", ""]
        return lines.joined(separator: "\n")
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func build() throws -> PackageBuild.Outcome {
        let outcome = try clock.measure(.build) { try PackageBuild(root: scratch, arguments: ["--build-tests"]).run() }
        log("swift build: \(outcome.succeeded ? "ok" : outcome.failureSummary(limit: 5).joined(separator: " | "))")
        return outcome
    }

    /// The lines `program`'s runner prints, on a fresh database.
    func results(of program: FuzzProgram) throws -> [String] {
        try clock.measure(.run) { try runResults(of: program) }
    }

    private func runResults(of program: FuzzProgram) throws -> [String] {
        let database = "\(scratch)/\(program.module).sqlite"
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: database + suffix)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(scratch)/.build/debug/FuzzRun")
        process.arguments = [program.module, database]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        if process.terminationStatus != 0 {
            lines.append("exit status \(process.terminationStatus)")
        }
        return lines
    }

    /// The programs whose files the errors of `outcome` name.
    static func programsNamed(in outcome: PackageBuild.Outcome, among programs: [FuzzProgram]) -> [String: [String]] {
        var errors: [String: [String]] = [:]
        for line in outcome.firstErrors(limit: 200) {
            for program in programs where line.contains("/Programs/\(program.module)/") {
                errors[program.module, default: []].append(line)
            }
        }
        return errors
    }

    // MARK: Snapshots

    /// Every file of a program's folder.
    func snapshot(_ program: FuzzProgram) -> [String: Data] {
        var files: [String: Data] = [:]
        let base = root(of: program)
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return files }
        for case let path as String in enumerator {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = FileManager.default.contents(atPath: base + "/" + path)
            }
        }
        return files
    }

    func restore(_ program: FuzzProgram, to files: [String: Data]) throws {
        let base = root(of: program)
        try? FileManager.default.removeItem(atPath: base)
        for (path, data) in files {
            try FileManager.default.createDirectory(
                atPath: ((base + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: base + "/" + path))
        }
    }

    // MARK: The oracle

    /// `inventory`'s disagreements with the ground truth, or nil.
    ///
    /// The truth: the legacy types are the finders, the record (its
    /// extension's finders take the transaction), and the consumers and
    /// services with a member that receives a legacy transaction; the uses
    /// are each consumer's and service's finders, a service's uses of the
    /// record (its members or GRDB's on it), and FuzzEntry's calls of the
    /// members that receive one
    /// (constructing a finder to inject it is wiring, not a use).
    func inventoryMismatch(_ program: FuzzProgram) throws -> String? {
        let root = root(of: program)
        let inventory = try clock.measure(.txkit) {
            try Generator(root: root, configuration: GeneratorConfiguration.load(from: root)).inventory()
        }
        let received = program.consumers.filter(\.shape.receives).map(\.name)
        // A superclass that declares members taking the transaction is a legacy type too.
        let superclasses = program.finders.filter(\.superclassHasMembers).map(\.superclassName)
        // The record's extension declares finders that take it; a service
        // with a method that receives it is a legacy type too (its private
        // helpers are not an API other types use).
        let legacyServices = program.services.filter(\.receivesLegacyTransaction).map(\.name)
        let expectedTypes = Set(program.finders.map(\.name) + superclasses + received + legacyServices
            + (program.record == nil ? [] : ["Item"]))
        var expectedUses = Set(program.pairs.map { "\($0.consumer) → \($0.legacy)" })
        for service in program.services where service.usesRecord { expectedUses.insert("\(service.name) → Item") }
        for name in received { expectedUses.insert("FuzzEntry → \(name)") }
        for service in program.services where service.methods.contains(where: { if case .received = $0.block { true } else { false } }) {
            expectedUses.insert("FuzzEntry → \(service.name)")
        }
        let types = Set(inventory.legacyTypes)
        let uses = Set(inventory.uses.map { "\($0.consumer) → \($0.type)" })
        var problems: [String] = []
        if types != expectedTypes {
            problems.append("legacy types: missing \(expectedTypes.subtracting(types).sorted()), extra \(types.subtracting(expectedTypes).sorted())")
        }
        if uses != expectedUses {
            problems.append("uses: missing \(expectedUses.subtracting(uses).sorted()), extra \(uses.subtracting(expectedUses).sorted())")
        }
        if !inventory.unresolved.isEmpty {
            problems.append("unresolved: " + inventory.unresolved.map { "\($0.location) \($0.text)" }.joined(separator: "; "))
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// The cause of a refusal, as the report counts it.
    static func causes(of error: any Error) -> [String]? {
        guard let error = error as? GeneratorError else { return nil }
        if case .overlappingEdits = error { return ["overlapping edits"] }
        let refusals = error.refusals
        let causes = refusals.compactMap { cause(of: $0) }
        return !refusals.isEmpty && causes.count == refusals.count ? Array(Set(causes)).sorted() : nil
    }

    /// The cause of one refusal: those `--apply` and `shim` make of code
    /// they cannot handle; `nil` for the others (a resolution that failed is
    /// a crash of the oracle).
    static func cause(of refusal: Refusal) -> String? {
        let text: String
        switch refusal.kind {
        case .cannotApply: text = refusal.sentence
        case .unsupportedUse: text = "unsupported use: " + refusal.sentence
        default: return nil
        }
        let causes: [(String, String)] = [
            ("a transaction the application opens itself", "legacy transaction from the app's own pool block (db in)"),
            ("still receives the legacy transaction", "legacy transaction received as a parameter"),
            ("a local or parameter of type", "use through a local or parameter"),
            ("functions of the sources have that name", "parameter of a method whose callers cannot be told apart"),
            ("is used for more than calls of its members", "parameter passed on or stored"),
            ("a singleton, a temporary", "use through a singleton, temporary or chain"),
            ("is Sendable and", "Sendable consumer, non-Sendable legacy type"),
            ("is a weak reference", "weak stored property"),
            ("is in a function that does not throw", "call in a non-throwing method (the shim throws)"),
            ("is in a closure, and its shim throws", "call in a non-throwing closure (the shim throws)"),
            ("whether it is optional is not known", "optional initializer argument of unknown optionality"),
            ("which may come from a module that shims leave out", "generic constraint from an excluded import (GRDB)"),
            ("isolated to the actor", "member isolated to an actor finder"),
            ("Sendable", "non-Sendable legacy type"),
            ("in a static member", "use in a static member"),
            ("returns a", "accessor returning the legacy type"),
            ("several stored properties", "several stored properties"),
            ("runs in a read transaction", "write member in a read block"),
            ("not built with a bridge", "legacy transaction not built with a bridge"),
        ]
        for (needle, cause) in causes where text.contains(needle) {
            return cause
        }
        return String(text.prefix(120))
    }

    /// The whole oracle on `programs`; `shrinkBudget` candidates per failure
    /// are tried by `shrink`.
    func run(_ programs: [FuzzProgram]) throws -> Report {
        var report = Report()
        report.programs = programs.count
        try write(programs)
        let outcome = try build()
        var live = programs
        if !outcome.succeeded {
            let named = Self.programsNamed(in: outcome, among: programs)
            for program in programs where named[program.module] != nil || named.isEmpty {
                report.failures.append(Failure(
                    kind: .program, program: program, pair: nil,
                    detail: (named[program.module] ?? outcome.failureSummary(limit: 10)).joined(separator: "\n")))
            }
            if named.isEmpty { return report }
            live = programs.filter { named[$0.module] == nil }
            try write(live)
            let again = try build()
            guard again.succeeded else {
                for program in live {
                    report.failures.append(Failure(kind: .program, program: program, pair: nil,
                                                   detail: again.failureSummary(limit: 10).joined(separator: "\n")))
                }
                return report
            }
        }
        var baseline: [String: [String]] = [:]
        for program in live {
            let lines = try results(of: program)
            baseline[program.module] = lines
            if lines.contains(where: { $0.hasPrefix("setup failed") || $0.hasPrefix("exit status") }) {
                report.failures.append(Failure(kind: .program, program: program, pair: nil, detail: lines.joined(separator: "\n")))
            }
            if let mismatch = try inventoryMismatch(program) {
                report.failures.append(Failure(kind: .inventory, program: program, pair: nil, detail: mismatch))
            }
        }
        let originals = Dictionary(uniqueKeysWithValues: live.map { ($0.module, snapshot($0)) })
        report.pairs = live.map(\.pairs.count).reduce(0, +)
        for shape in live.flatMap(\.calledShapes) { report.calledShapes[shape, default: 0] += 1 }
        var appliedPairs: [String: Set<String>] = [:]
        func succeeded(_ pair: (consumer: String, legacy: String), in program: FuzzProgram) {
            report.applied += 1
            appliedPairs[program.module, default: []].insert("\(pair.consumer)/\(pair.legacy)")
            let mock = "\(root(of: program))/Tests/Mocks/\(pair.consumer)_\(pair.legacy)Mock.swift"
            if FileManager.default.fileExists(atPath: mock) { report.mocksCompiled += 1 }
        }
        func refused(_ pair: (consumer: String, legacy: String), in program: FuzzProgram, _ error: any Error) {
            log("refused \(program.module) \(pair.consumer)/\(pair.legacy): \(error)")
            if let causes = Self.causes(of: error) {
                report.refusedPairs += 1
                for cause in causes { report.refusals[cause, default: 0] += 1 }
            } else {
                report.failures.append(Failure(kind: .crash, program: program, pair: pair, detail: "\(error)"))
            }
        }
        var work = Self.runs(.shim) ? live.map { Steps(program: $0, steps: $0.pairs) } : []
        if Self.appliesAllAtOnce {
            let pass = try applyAllAtOnce(
                work, baseline: baseline,
                apply: { pair, program in
                    log("apply \(program.module) \(pair.consumer)/\(pair.legacy)")
                    try apply(pair, in: program)
                },
                refused: { pair, program, error in refused(pair, in: program, error) })
            for entry in pass.passed {
                for pair in entry.steps { succeeded(pair, in: entry.program) }
            }
            work = pass.retry
        }
        let rounds = work.map(\.steps.count).max() ?? 0
        for round in 0..<rounds {
            var applied: [(program: FuzzProgram, pair: (consumer: String, legacy: String), before: [String: Data])] = []
            for entry in work where round < entry.steps.count {
                let program = entry.program
                let pair = entry.steps[round]
                let before = snapshot(program)
                do {
                    log("apply \(program.module) \(pair.consumer)/\(pair.legacy)")
                    try apply(pair, in: program)
                    applied.append((program, pair, before))
                } catch {
                    try restore(program, to: before)
                    refused(pair, in: program, error)
                }
            }
            guard !applied.isEmpty else { continue }
            // The compiler stops at the first module that fails: restore
            // the programs its errors name and build again, until it builds.
            var outcome = try build()
            while !outcome.succeeded {
                let named = Self.programsNamed(in: outcome, among: applied.map(\.program))
                for entry in applied where named[entry.program.module] != nil || named.isEmpty {
                    report.failures.append(Failure(
                        kind: .build, program: entry.program, pair: entry.pair,
                        detail: (named[entry.program.module] ?? outcome.failureSummary(limit: 10)).joined(separator: "\n")))
                    try restore(entry.program, to: entry.before)
                }
                if named.isEmpty && applied.isEmpty {
                    throw FuzzHarnessError(message: "the scratch package does not build after restoring: \(outcome.failureSummary(limit: 10))")
                }
                applied.removeAll { named[$0.program.module] != nil || named.isEmpty }
                outcome = try build()
            }
            for entry in applied {
                let after = try results(of: entry.program)
                if after != baseline[entry.program.module] {
                    report.failures.append(Failure(
                        kind: .behaviour, program: entry.program, pair: entry.pair,
                        detail: "before: \(baseline[entry.program.module] ?? [])\nafter:  \(after)"))
                    try restore(entry.program, to: entry.before)
                } else {
                    succeeded(entry.pair, in: entry.program)
                }
            }
        }
        if Self.runs(.mockTests) { try runMockTests(live, applied: appliedPairs, report: &report) }
        if Self.runs(.convert) { try runConversions(live, baseline: baseline, report: &report) }
        if Self.runs(.migrate) { try runMigrations(live, originals: originals, baseline: baseline, report: &report) }
        return report
    }

    /// The oracles after the program's own checks and the inventory.
    enum Oracle: String, CaseIterable {
        /// `shim --apply` of each pair.
        case shim
        /// A MockDB test per consumer method after the shim rounds.
        case mockTests = "mocks"
        /// `convert --apply` of each finder.
        case convert
        /// `migrate` of every consumer and service of the program as
        /// written, and a MockDB test per method.
        case migrate
    }

    /// `TXKIT_FUZZ_ORACLES`: a comma-separated list of ``Oracle``s (by
    /// default all but `migrate`, which still finds the known issues of
    /// `MigrateTests+FuzzFindings.swift`; `shim` alone keeps its former
    /// meaning, the shim rounds only).
    static func runs(_ oracle: Oracle) -> Bool {
        guard let list = ProcessInfo.processInfo.environment["TXKIT_FUZZ_ORACLES"], !list.isEmpty else { return oracle != .migrate }
        return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains(oracle.rawValue)
    }

    /// `txkit shim --consumer C --legacy F --apply`, in process.
    func apply(_ pair: (consumer: String, legacy: String), in program: FuzzProgram) throws {
        try clock.measure(.txkit) { try applyShim(pair, in: program) }
    }

    private func applyShim(_ pair: (consumer: String, legacy: String), in program: FuzzProgram) throws {
        let root = root(of: program)
        let generator = try Generator(root: root, configuration: GeneratorConfiguration.load(from: root))
        let plan = try generator.plan(consumer: pair.consumer, legacy: pair.legacy)
        let files = generator.render(plan)
        let edits = try generator.rewrite(plan)
        try FileChangeSet(root: root, files: files, edits: edits).write()
    }

    // MARK: Shrinking

    /// A smaller program that still fails as `failure` did (same kind and
    /// pair), trying at most `budget` candidates.
    func shrink(_ failure: Failure, budget: Int) throws -> FuzzProgram {
        var current = failure.program
        var tried = 0
        var progress = true
        while progress && tried < budget {
            progress = false
            for candidate in current.shrinkCandidates() {
                guard tried < budget else { break }
                if [.build, .behaviour, .crash].contains(failure.kind), let pair = failure.pair,
                   !candidate.pairs.contains(where: { $0 == pair }) { continue }
                tried += 1
                if failure.kind == .inventory {
                    // No build needed: the inventory reads the sources.
                    try write([candidate])
                    if try inventoryMismatch(candidate) != nil {
                        current = candidate
                        progress = true
                        break
                    }
                    continue
                }
                let report = try run([candidate])
                if report.failures.contains(where: { Self.isSameFailure($0, as: failure) }) {
                    current = candidate
                    progress = true
                    break
                }
            }
        }
        return current
    }
}

extension FuzzHarness {
    /// Whether a smaller program fails as `failure` did: the same kind and
    /// pair; for the migrate oracle, the same check (build, behaviour,
    /// residue, crash) or the same type's MockDB test, whatever else the
    /// smaller program migrated.
    static func isSameFailure(_ candidate: Failure, as failure: Failure) -> Bool {
        guard candidate.kind == failure.kind else { return false }
        switch failure.kind {
        case .migrate: return candidate.pair?.legacy == failure.pair?.legacy
        case .migrateMockTest: return candidate.pair?.consumer == failure.pair?.consumer
        default: return candidate.pair.map { "\($0)" } == failure.pair.map { "\($0)" }
        }
    }
}

struct FuzzHarnessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
#endif
