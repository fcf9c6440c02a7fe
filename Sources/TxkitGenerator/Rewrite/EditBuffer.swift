#if Txkit
import SwiftSyntax

/// The text edits a rewrite collects in the files it reads (`shim --apply`,
/// `convert`), and the imports those files then need; turned into
/// ``ConsumerEdit``s once every edit is known.
///
/// Offsets are read in each file's original text (see
/// ``TextEdit/apply(_:to:)``), so edits can be added in any order.
struct EditBuffer {
    private var edits: [String: [TextEdit]] = [:]
    private var files: [String: SourceFile] = [:]
    private var neededImports: [String: [String]] = [:]
    /// The edited files' paths, in the order they were first edited.
    private(set) var paths: [String] = []

    /// Whether no edit was added.
    var isEmpty: Bool { paths.isEmpty }

    mutating func add(_ edit: TextEdit, in file: SourceFile) {
        if files[file.path] == nil {
            files[file.path] = file
            paths.append(file.path)
        }
        edits[file.path, default: []].append(edit)
    }

    /// Replaces `node`, trivia aside.
    mutating func replace(_ node: some SyntaxProtocol, in file: SourceFile, with text: String) {
        add(TextEdit(
            start: node.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: node.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: text), in: file)
    }

    mutating func insert(_ text: String, at position: AbsolutePosition, in file: SourceFile) {
        add(TextEdit(start: position.utf8Offset, end: position.utf8Offset, replacement: text), in: file)
    }

    /// Inserts `text` at `position` unless the same insertion is there (two
    /// calls of one operator sequence share the `try` before it).
    mutating func insertOnce(_ text: String, at position: AbsolutePosition, in file: SourceFile) {
        let offset = position.utf8Offset
        if edits[file.path]?.contains(where: { $0.start == offset && $0.end == offset && $0.replacement == text }) == true {
            return
        }
        insert(text, at: position, in: file)
    }

    /// Notes that `file` needs `modules` imported once edited; those it
    /// lacks are added by ``consumerEdits(in:)``.
    mutating func need(_ modules: [String], in file: SourceFile) {
        for module in modules where !(neededImports[file.path] ?? []).contains(module) {
            neededImports[file.path, default: []].append(module)
        }
    }

    /// Notes that each file with an edit that `matches` needs `modules`.
    mutating func need(_ modules: [String], inFilesWithAnEdit matches: (TextEdit) -> Bool) {
        for path in paths where edits[path]?.contains(where: matches) == true {
            if let file = files[path] { need(modules, in: file) }
        }
    }

    /// The edited files among `paths` (all of them by default), each with
    /// its text before and after, the imports it needs and lacks added
    /// after its last import (or at its top).
    ///
    /// - Throws: ``GeneratorError/overlappingEdits(path:locations:)`` when
    ///   two edits of a file touch the same bytes (a bug in txkit).
    mutating func consumerEdits(in paths: [String]? = nil) throws -> [ConsumerEdit] {
        addNeededImports()
        return try (paths ?? self.paths).compactMap { path in
            guard let list = edits[path], let file = files[path] else { return nil }
            try Self.requireNoOverlap(list, in: file)
            let original = file.tree.description
            return ConsumerEdit(path: path, original: original, edited: TextEdit.apply(list, to: original))
        }
    }

    private mutating func addNeededImports() {
        for path in paths {
            guard let modules = neededImports[path], let file = files[path] else { continue }
            let present = Set(file.imports)
            let missing = modules.filter { !present.contains($0) }.sorted()
            guard !missing.isEmpty else { continue }
            if let lastImport = file.tree.statements.last(where: { $0.item.is(ImportDeclSyntax.self) }) {
                insert(missing.map { "\nimport \($0)" }.joined(), at: lastImport.endPositionBeforeTrailingTrivia, in: file)
            } else {
                insert(
                    missing.map { "import \($0)\n" }.joined() + "\n", at: file.tree.positionAfterSkippingLeadingTrivia,
                    in: file)
            }
        }
        neededImports = [:]
    }

    /// Refuses edits that touch the same bytes: made one after the other,
    /// they would garble the code (`self.orderFindernder`).
    static func requireNoOverlap(_ edits: [TextEdit], in file: SourceFile) throws {
        let pairs = TextEdit.overlappingPairs(edits)
        guard !pairs.isEmpty else { return }
        let location = { (offset: Int) -> String in
            let place = file.converter.location(for: AbsolutePosition(utf8Offset: offset))
            return "\(file.path):\(place.line):\(place.column)"
        }
        throw GeneratorError.overlappingEdits(
            path: file.path,
            locations: pairs.map { first, second in
                "\(location(first.start))-\(location(first.end)) and \(location(second.start))-\(location(second.end))"
            })
    }
}
#endif
