#if Txkit
import Foundation

/// The fast pass of the shim and conversion rounds: every step of every
/// program at once, one build.
///
/// The rounds build the scratch package after each step (one pair shimmed,
/// one finder converted, per program), so that a broken build or a changed
/// result names the step at fault. Builds are nearly all of a run's time,
/// and steps rarely fail, so each program first takes all its steps in a
/// row (a refused step undone, the next applied on top), the package is
/// built once and every program run once. A program that fails to build or
/// returns other results is put back as it was and its steps go through
/// the rounds one by one, which find the step at fault as before.
/// `TXKIT_FUZZ_EACH_STEP=1` skips the fast pass: every intermediate state
/// is then built and run too.
extension FuzzHarness {
    /// A program and the steps it takes.
    struct Steps<Step> {
        var program: FuzzProgram
        var steps: [Step]
    }

    /// Whether the fast pass runs (`TXKIT_FUZZ_EACH_STEP` unset).
    static var appliesAllAtOnce: Bool {
        ProcessInfo.processInfo.environment["TXKIT_FUZZ_EACH_STEP"] == nil
    }

    /// Applies each program's steps in order, builds once and compares each
    /// program's results with `baseline`.
    ///
    /// - Parameters:
    ///   - apply: Applies a step (throws when txkit refuses it or fails).
    ///   - refused: Records a step `apply` threw for; the step is undone.
    /// - Returns: `passed`, the programs that built and kept their results,
    ///   with the steps they took (now in their files); `retry`, the others,
    ///   restored to where they started, with the steps to take one round
    ///   at a time (refused steps left out: they were recorded).
    func applyAllAtOnce<Step>(
        _ work: [Steps<Step>],
        baseline: [String: [String]],
        apply: (Step, FuzzProgram) throws -> Void,
        refused: (Step, FuzzProgram, any Error) throws -> Void
    ) throws -> (passed: [Steps<Step>], retry: [Steps<Step>]) {
        var taken: [(start: [String: Data], work: Steps<Step>)] = []
        for entry in work {
            let start = snapshot(entry.program)
            var applied: [Step] = []
            for step in entry.steps {
                let before = snapshot(entry.program)
                do {
                    try apply(step, entry.program)
                    applied.append(step)
                } catch {
                    try restore(entry.program, to: before)
                    try refused(step, entry.program, error)
                }
            }
            if !applied.isEmpty {
                taken.append((start, Steps(program: entry.program, steps: applied)))
            }
        }
        guard !taken.isEmpty else { return ([], []) }
        var retry: [Steps<Step>] = []
        var outcome = try build()
        while !outcome.succeeded {
            // The compiler stops at the first module that fails: put back
            // the programs its errors name (all, if it names none) and build
            // again.
            let named = Self.programsNamed(in: outcome, among: taken.map(\.work.program))
            for entry in taken where named.isEmpty || named[entry.work.program.module] != nil {
                try restore(entry.work.program, to: entry.start)
                retry.append(entry.work)
            }
            taken.removeAll { named.isEmpty || named[$0.work.program.module] != nil }
            log("all at once: \(retry.count) programs go step by step after a failed build")
            guard !taken.isEmpty else { return ([], retry) }
            outcome = try build()
        }
        var passed: [Steps<Step>] = []
        for entry in taken {
            if try results(of: entry.work.program) == baseline[entry.work.program.module] {
                passed.append(entry.work)
            } else {
                try restore(entry.work.program, to: entry.start)
                retry.append(entry.work)
                log("all at once: \(entry.work.program.module) returns other results; its steps go one by one")
            }
        }
        return (passed, retry)
    }
}
#endif
