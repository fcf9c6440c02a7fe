/// A replacement of a range of a file's UTF-8 bytes.
struct TextEdit {
    var start: Int
    var end: Int
    var replacement: String

    /// `text` with `edits` made. Edits must not overlap; an insertion
    /// (`start == end`) at the same place as another keeps their order.
    static func apply(_ edits: [TextEdit], to text: String) -> String {
        var bytes = Array(text.utf8)
        let ordered = edits.enumerated().sorted { a, b in
            a.element.start != b.element.start ? a.element.start > b.element.start : a.offset > b.offset
        }
        for (_, edit) in ordered {
            bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.replacement.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
