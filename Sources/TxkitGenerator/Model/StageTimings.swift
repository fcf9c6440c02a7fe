#if Txkit
import Foundation

/// What each stage of one `txkit` run cost, wall time (`--timings`).
///
/// A stage measured inside another is subtracted from it, so each second
/// is counted once and the stages add up to the run: `plan` inside
/// `scan` (an inventory checks whether a shim is current) is `plan`'s.
/// A stage run on every core is measured as a whole on the thread that
/// started it (``measureInParallel(_:_:)``); the stages inside it, on any
/// thread, are its.
///
/// ```swift
/// let timings = StageTimings()
/// let generator = try Generator(root: ".", configuration: configuration, timings: timings)
/// _ = generator.inventory()
/// FileHandle.standardError.write(Data(timings.report.utf8))
/// ```
public final class StageTimings: @unchecked Sendable {
    /// The stages of ``Generator``, in the order a run goes through them.
    package enum Stage: String, CaseIterable, Sendable {
        /// Reading and parsing the sources.
        case parse
        /// The symbol table and the index of names to files.
        case index
        /// What each consumer does with the legacy types (inventory).
        case scan
        /// What one consumer needs from one legacy type.
        case plan
        /// Generated files' text.
        case render
        /// The edits to consumers (`shim --apply`, `convert`).
        case rewrite
        /// A consumer's migration (`migrate`), its planning and rendering.
        case migrate
        /// Generated files compared with those on disk (`--check`).
        case check
        /// Files written.
        case write
    }

    /// Seconds per stage, exclusive of the stages measured inside it.
    private var seconds: [Stage: Double] = [:]
    /// The stages being measured, innermost last, with when each resumed.
    private var running: [(stage: Stage, since: UInt64)] = []
    /// Inside ``measureInParallel(_:_:)``: inner stages are not measured.
    private var parallelDepth = 0
    /// The thread that measures: others (the workers of a parallel stage)
    /// never touch the state above.
    private let owner = pthread_self()

    /// Nothing measured yet.
    public init() {}

    /// Runs `body` as `stage`.
    package func measure<T>(_ stage: Stage, _ body: () throws -> T) rethrows -> T {
        guard isMeasuring else { return try body() }
        start(stage)
        defer { stop() }
        return try body()
    }

    /// Runs `body`, which spreads its work over every core, as `stage`:
    /// the stages measured inside it count as `stage`.
    package func measureInParallel<T>(_ stage: Stage, _ body: () throws -> T) rethrows -> T {
        guard isMeasuring else { return try body() }
        start(stage)
        parallelDepth += 1
        defer {
            parallelDepth -= 1
            stop()
        }
        return try body()
    }

    /// The seconds spent in `stage` so far.
    package func seconds(of stage: Stage) -> Double {
        seconds[stage, default: 0]
    }

    /// The stages that ran, one a line in ``Stage`` order, then the total:
    /// what `--timings` prints to standard error.
    public var report: String {
        let ran = Stage.allCases.filter { seconds[$0] != nil }
        let total = ran.map { seconds(of: $0) }.reduce(0, +)
        let width = max(5, ran.map(\.rawValue.count).max() ?? 0)
        let pad = { (name: String) in name.padding(toLength: width, withPad: " ", startingAt: 0) }
        var lines = ["txkit timings:"]
        for stage in ran {
            let value = seconds(of: stage)
            let share = total > 0 ? value / total * 100 : 0
            lines.append("  " + pad(stage.rawValue) + String(format: "  %8.3f s  %3.0f %%", value, share))
        }
        lines.append("  " + pad("total") + String(format: "  %8.3f s", total))
        return lines.joined(separator: "\n") + "\n"
    }

    private var isMeasuring: Bool {
        pthread_equal(pthread_self(), owner) != 0 && parallelDepth == 0
    }

    private func start(_ stage: Stage) {
        let now = DispatchTime.now().uptimeNanoseconds
        if let outer = running.last {
            seconds[outer.stage, default: 0] += Self.seconds(from: outer.since, to: now)
        }
        running.append((stage, now))
    }

    private func stop() {
        let now = DispatchTime.now().uptimeNanoseconds
        let inner = running.removeLast()
        seconds[inner.stage, default: 0] += Self.seconds(from: inner.since, to: now)
        if !running.isEmpty {
            running[running.count - 1].since = now
        }
    }

    private static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(end - start) / 1e9
    }
}
#endif
