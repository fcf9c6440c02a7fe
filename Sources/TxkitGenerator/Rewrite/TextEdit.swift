#if Txkit
/// A replacement of a range of a file's UTF-8 bytes.
struct TextEdit: Equatable {
    var start: Int
    var end: Int
    var replacement: String

    /// Whether the two edits touch the same bytes: two replacements whose
    /// ranges intersect, or an insertion strictly inside a replaced range.
    /// Edits that only meet at an end (`a.end == b.start`), and insertions
    /// at the same place, do not overlap.
    func overlaps(_ other: TextEdit) -> Bool {
        if start == end && other.start == other.end { return false }
        if start == end { return other.start < start && start < other.end }
        if other.start == other.end { return start < other.start && other.start < end }
        return start < other.end && other.start < end
    }

    /// The pairs of `edits` that overlap, in the order of their starts.
    static func overlappingPairs(_ edits: [TextEdit]) -> [(TextEdit, TextEdit)] {
        let sorted = edits.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        var pairs: [(TextEdit, TextEdit)] = []
        for (index, edit) in sorted.enumerated() {
            for other in sorted[(index + 1)...] {
                // Sorted by start: nothing after a start past this end overlaps.
                if other.start > edit.end { break }
                if edit.overlaps(other) { pairs.append((edit, other)) }
            }
        }
        return pairs
    }

    /// `text` with `edits` made, every offset read in the original text.
    /// Edits must not overlap (see ``overlappingPairs(_:)``). Insertions at
    /// one place keep their order, and come before a replacement that
    /// starts there (`try ` inserted before `Finder` replaced with
    /// `self.finder` gives `try self.finder`).
    static func apply(_ edits: [TextEdit], to text: String) -> String {
        let bytes = Array(text.utf8)
        let ordered = edits.enumerated().sorted { a, b in
            if a.element.start != b.element.start { return a.element.start < b.element.start }
            let (aInserts, bInserts) = (a.element.start == a.element.end, b.element.start == b.element.end)
            if aInserts != bInserts { return aInserts }
            return a.offset < b.offset
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var cursor = 0
        for (_, edit) in ordered {
            if edit.start > cursor { result += bytes[cursor..<edit.start] }
            result += Array(edit.replacement.utf8)
            cursor = max(cursor, edit.end)
        }
        if cursor < bytes.count { result += bytes[cursor...] }
        return String(decoding: result, as: UTF8.self)
    }
}
#endif
