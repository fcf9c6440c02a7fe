#if Txkit
import Foundation
import TxkitGenerator

/// The oracle's conversions: after the shim rounds, `txkit convert
/// --apply` for each finder (one finder per program per round, every
/// program's conversion built together), then the package builds and every
/// consumer method returns what it returned before.
extension FuzzHarness {
    /// `txkit convert --legacy F --apply`, in process; throws
    /// ``GeneratorError/refused(_:_:)`` when the plan has places for a person.
    func convert(_ legacy: String, in program: FuzzProgram) throws {
        try clock.measure(.txkit) { try convertFinder(legacy, in: program) }
    }

    private func convertFinder(_ legacy: String, in program: FuzzProgram) throws {
        let root = root(of: program)
        let generator = try Generator(
            root: root, configuration: GeneratorConfiguration.load(from: root), includingTests: true)
        try generator.changes(applying: generator.convert(legacy: legacy)).write()
    }

    /// The causes of a refused conversion, as the report counts them, or
    /// nil when `error` is not a refusal (a crash).
    static func conversionCauses(of error: any Error) -> [String]? {
        let refusals = (error as? GeneratorError)?.refusals ?? []
        if !refusals.isEmpty, refusals.allSatisfy({ $0.kind == .cannotConvert }) {
            return Array(Set(refusals.map { conversionCause(of: $0.sentence) })).sorted()
        }
        return causes(of: error)
    }

    /// A blocker's reason without the names of the program it was found in.
    static func conversionCause(of reason: String) -> String {
        var text = reason
        for name in ["TaskStore", "UserFinder", "OrderRecords", "ItemTable", "NoteRepository", "TagStore",
                     "TaskManager", "ProfileService", "OrderManager", "SyncController", "ReportBuilder"] {
            text = text.replacingOccurrences(of: name, with: "T")
        }
        return String(text.prefix(140))
    }

    /// The conversion rounds on `live` programs (which built, with their
    /// `baseline` results): conversions applied, refusals by cause, and
    /// `.convert` failures in `report`.
    func runConversions(_ live: [FuzzProgram], baseline: [String: [String]], report: inout Report) throws {
        func refused(_ legacy: String, in program: FuzzProgram, _ error: any Error) {
            log("convert refused \(program.module) \(legacy): \(error)")
            if let causes = Self.conversionCauses(of: error) {
                report.conversionsRefused += 1
                for cause in causes { report.conversionRefusals[cause, default: 0] += 1 }
            } else {
                report.failures.append(Failure(
                    kind: .convert, program: program, pair: ("convert", legacy), detail: "crash: \(error)"))
            }
        }
        report.conversions += live.map(\.finders.count).reduce(0, +)
        var work = live.map { Steps(program: $0, steps: $0.finders.map(\.name)) }
        if Self.appliesAllAtOnce {
            let pass = try applyAllAtOnce(
                work, baseline: baseline,
                apply: { legacy, program in
                    log("convert \(program.module) \(legacy)")
                    try convert(legacy, in: program)
                },
                refused: { legacy, program, error in refused(legacy, in: program, error) })
            report.conversionsApplied += pass.passed.map(\.steps.count).reduce(0, +)
            work = pass.retry
        }
        let rounds = work.map(\.steps.count).max() ?? 0
        for round in 0..<rounds {
            var converted: [(program: FuzzProgram, legacy: String, before: [String: Data])] = []
            for entry in work where round < entry.steps.count {
                let program = entry.program
                let legacy = entry.steps[round]
                let before = snapshot(program)
                do {
                    log("convert \(program.module) \(legacy)")
                    try convert(legacy, in: program)
                    converted.append((program, legacy, before))
                } catch {
                    try restore(program, to: before)
                    refused(legacy, in: program, error)
                }
            }
            guard !converted.isEmpty else { continue }
            var outcome = try build()
            while !outcome.succeeded {
                let named = Self.programsNamed(in: outcome, among: converted.map(\.program))
                for entry in converted where named[entry.program.module] != nil || named.isEmpty {
                    report.failures.append(Failure(
                        kind: .convert, program: entry.program, pair: ("convert", entry.legacy),
                        detail: "build: " + (named[entry.program.module] ?? outcome.failureSummary(limit: 10)).joined(separator: "\n")))
                    try restore(entry.program, to: entry.before)
                }
                if named.isEmpty && converted.isEmpty {
                    throw FuzzHarnessError(message: "the scratch package does not build after restoring: \(outcome.failureSummary(limit: 10))")
                }
                converted.removeAll { named[$0.program.module] != nil || named.isEmpty }
                outcome = try build()
            }
            for entry in converted {
                let after = try results(of: entry.program)
                if after != baseline[entry.program.module] {
                    report.failures.append(Failure(
                        kind: .convert, program: entry.program, pair: ("convert", entry.legacy),
                        detail: "behaviour: before: \(baseline[entry.program.module] ?? [])\nafter:  \(after)"))
                    try restore(entry.program, to: entry.before)
                } else {
                    report.conversionsApplied += 1
                }
            }
        }
    }
}
#endif
