/// What one backend showed while running a program, in order: each op's
/// result or error, hooks, commit notifications and async completions (at
/// the end of the step that scheduled them), then the committed key-value
/// state; and the misuses reported to the test runner.
struct Trace: Hashable, Sendable {
    var events: [String] = []
    /// Misuse messages the checks reported (a misuse that throws shows in
    /// `events` too; one that does not, such as `addSyncCompletion` on an
    /// escaped transaction, shows only here).
    var misuseReports: [String] = []

    /// A readable comparison: both traces line by line, the differing
    /// lines marked, starting a few lines before the first difference.
    static func diff(_ left: Trace, _ right: Trace, leftName: String, rightName: String) -> String {
        var lines: [String] = []
        for (title, a, b) in [("events", left.events, right.events), ("misuse reports", left.misuseReports, right.misuseReports)] {
            guard a != b else { continue }
            let first = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            lines.append("\(title) differ from line \(first) (\(leftName): \(a.count) lines, \(rightName): \(b.count) lines):")
            let start = max(0, first - 3)
            for index in start..<max(a.count, b.count) where index < first + 12 {
                let l = index < a.count ? a[index] : "∅"
                let r = index < b.count ? b[index] : "∅"
                if l == r {
                    lines.append("    \(index): \(l)")
                } else {
                    lines.append("  - \(index) \(leftName): \(l)")
                    lines.append("  + \(index) \(rightName): \(r)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
