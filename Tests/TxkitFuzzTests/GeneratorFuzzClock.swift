#if Txkit
import Foundation

/// Where a fuzzer run spends its time, by phase: package builds, program
/// runs, txkit in process. Printed with the run's summary, so that the
/// cost of a long run can be planned and its slowest phase attacked.
final class FuzzClock: @unchecked Sendable {
    /// A phase of the oracle.
    enum Phase: String, CaseIterable {
        case build = "swift build"
        case run = "program runs"
        case txkit = "txkit"
        case mockTests = "MockDB test runs"
    }

    private let lock = NSLock()
    private var seconds: [Phase: Double] = [:]
    private var counts: [Phase: Int] = [:]

    /// Runs `body`, adding its duration to `phase`.
    func measure<T>(_ phase: Phase, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            lock.lock()
            seconds[phase, default: 0] += elapsed
            counts[phase, default: 0] += 1
            lock.unlock()
        }
        return try body()
    }

    /// One line: each phase's total seconds and how many times it ran.
    var summary: String {
        lock.lock()
        defer { lock.unlock() }
        let parts = Phase.allCases.compactMap { phase -> String? in
            guard let count = counts[phase] else { return nil }
            return "\(phase.rawValue) \(Int(seconds[phase, default: 0].rounded())) s (\(count)×)"
        }
        return "time by phase: " + parts.joined(separator: ", ")
    }
}
#endif
