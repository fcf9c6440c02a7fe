#if Txkit
/// The edits a migration asked for that another makes moot, dropped
/// before they are checked for overlap and made.
extension ConsumerMigration {
    /// `edits` without those that another makes moot: the same edit
    /// asked for twice (two calls in one method that now throw each mark
    /// it `throws`), and a `try` inserted inside code another edit
    /// replaces whole (a run of statements moved into a requirement, whose
    /// call txkit writes tried), or before a replacement that is a
    /// statement of its own (`return try dataAccess.m(…)`). A `try` before
    /// a replaced expression (`Finder` → `self.finder`) stays.
    static func withoutRedundantEdits(_ edits: [TextEdit]) -> [TextEdit] {
        let statementStarts = ["try ", "return ", "let ", "var "]
        var kept: [TextEdit] = []
        for edit in edits where !kept.contains(where: { $0 == edit }) {
            let isTry = edit.start == edit.end && edit.replacement == "try "
            let isMoot = edits.contains { other in
                other.start < other.end && other.start <= edit.start && edit.start < other.end
                    && (other.start < edit.start || statementStarts.contains { other.replacement.hasPrefix($0) })
            }
            if isTry, isMoot { continue }
            kept.append(edit)
        }
        return kept
    }
}
#endif
