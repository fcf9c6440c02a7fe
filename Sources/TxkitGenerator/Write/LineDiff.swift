#if Txkit
/// A line diff between two texts, printed in the unified style (`-` on
/// disk, `+` generated), with two lines of context around each change.
struct LineDiff {
    enum Line: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    let lines: [Line]

    /// Longest common subsequence over lines: generated files are short,
    /// so the quadratic table is cheap.
    init(old: String, new: String) {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var lines: [Line] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                lines.append(.same(a[i])); i += 1; j += 1
            } else if i < a.count, j == b.count || table[i + 1][j] >= table[i][j + 1] {
                lines.append(.removed(a[i])); i += 1
            } else {
                lines.append(.added(b[j])); j += 1
            }
        }
        self.lines = lines
    }

    func unified(path: String, old: String = "on disk", new: String = "generated", context: Int = 2) -> String {
        var output = ["--- \(path) (\(old))", "+++ \(path) (\(new))"]
        let changed = lines.indices.filter { lines[$0] != .same(lineText(lines[$0])) }
        var shown = Set<Int>()
        for index in changed {
            for near in max(0, index - context)...min(lines.count - 1, index + context) { shown.insert(near) }
        }
        var previous: Int?
        for index in shown.sorted() {
            if let previous, index != previous + 1 { output.append("@@") }
            switch lines[index] {
            case let .same(text): output.append(" " + text)
            case let .removed(text): output.append("-" + text)
            case let .added(text): output.append("+" + text)
            }
            previous = index
        }
        return output.joined(separator: "\n")
    }

    private func lineText(_ line: Line) -> String {
        switch line {
        case let .same(text), let .removed(text), let .added(text): return text
        }
    }
}
#endif
