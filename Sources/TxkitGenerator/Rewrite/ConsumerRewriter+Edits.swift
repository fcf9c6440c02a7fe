#if Txkit
import SwiftSyntax

/// The text edits a rewrite collects, per file.
extension ConsumerRewriter {
    mutating func replace(_ node: some SyntaxProtocol, in file: SourceFile, with text: String) {
        add(TextEdit(
            start: node.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: node.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: text), in: file)
    }

    mutating func insert(_ text: String, at position: AbsolutePosition, in file: SourceFile) {
        add(TextEdit(start: position.utf8Offset, end: position.utf8Offset, replacement: text), in: file)
    }

    /// Inserts `try ` at `position`, unless an edit already does (two
    /// calls of one operator sequence share the `try` before it).
    mutating func insertTry(at position: AbsolutePosition, in file: SourceFile) {
        insertOnce("try ", at: position, in: file)
    }

    /// Inserts `text` at `position` unless the same insertion is there.
    mutating func insertOnce(_ text: String, at position: AbsolutePosition, in file: SourceFile) {
        let offset = position.utf8Offset
        if edits[file.path]?.contains(where: { $0.start == offset && $0.end == offset && $0.replacement == text }) == true {
            return
        }
        insert(text, at: position, in: file)
    }

    mutating func add(_ edit: TextEdit, in file: SourceFile) {
        files[file.path] = file
        edits[file.path, default: []].append(edit)
    }
}
#endif
