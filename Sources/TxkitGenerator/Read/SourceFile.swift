#if Txkit
import Foundation
import SwiftDiagnostics
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// A parsed Swift file.
final class SourceFile {
    let path: String
    let tree: SourceFileSyntax
    /// The text the tree was parsed from (the tree's `description`).
    let text: String
    /// Line and column of a position, built on first use: only the files
    /// an edit indents ask for columns, and swift-syntax builds its table
    /// by walking the whole tree (``line(of:)`` reads ``lineStarts``).
    var converter: SourceLocationConverter { columns.value }
    private let columns: ComputedOnce<SourceLocationConverter>
    /// The UTF-8 offset each line starts at, from the text: the index
    /// records a line for every declaration of every file.
    private let lineStarts: [Int]
    /// The command in the file's txkit marker, if txkit generated it.
    let generatedBy: GeneratedFileMarker?

    /// Parses `text`; a file with syntax errors is refused with the
    /// compiler-style diagnostics, so nothing is generated from a guess.
    init(path: String, text: String) throws {
        self.path = path
        self.text = text
        generatedBy = GeneratedFileMarker(firstLine: text.prefix { $0 != "\n" })
        let tree = Parser.parse(source: text)
        self.tree = tree
        columns = ComputedOnce { SourceLocationConverter(fileName: path, tree: tree) }
        lineStarts = Self.lineStarts(of: text)
        // The diagnostics walk the whole tree again: only for a tree that
        // has an error somewhere.
        guard tree.hasError else { return }
        let diagnostics = ParseDiagnosticsGenerator.diagnostics(for: tree)
        if diagnostics.contains(where: { $0.diagMessage.severity == .error }) {
            let formatted = DiagnosticsFormatter.annotatedSource(
                tree: tree, diags: diagnostics.filter { $0.diagMessage.severity == .error })
            let located = diagnostics.first.map { diagnostic in
                let location = diagnostic.location(converter: converter)
                return "\(path):\(location.line):\(location.column): error: \(diagnostic.message)\n"
            } ?? ""
            throw GeneratorError.unparsableSource(path: path, diagnostics: located + formatted)
        }
    }

    convenience init(path: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw GeneratorError.unreadablePath(path, reason: "not a readable UTF-8 file")
        }
        try self.init(path: path, text: text)
    }

    /// Where a node starts.
    func sourceLocation(of node: some SyntaxProtocol) -> SourceLocation {
        SourceLocation(path: path, line: line(of: node))
    }

    /// `path:line` of a node, for messages.
    func location(of node: some SyntaxProtocol) -> String {
        sourceLocation(of: node).description
    }

    /// The line a node starts on (after its leading trivia), from 1.
    func line(of node: some SyntaxProtocol) -> Int {
        line(at: node.positionAfterSkippingLeadingTrivia.utf8Offset)
    }

    /// The line of a UTF-8 offset, from 1: the number of lines that start
    /// at or before it.
    func line(at offset: Int) -> Int {
        var low = 0, high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Where each line starts. A line ends after `\n`, `\r` or `\r\n`, as
    /// Swift's grammar and swift-syntax's own line table count them.
    static func lineStarts(of text: String) -> [Int] {
        var text = text
        return text.withUTF8 { bytes in
            var starts = [0]
            var offset = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                if byte == UInt8(ascii: "\n") {
                    starts.append(offset)
                } else if byte == UInt8(ascii: "\r") {
                    if offset < bytes.count, bytes[offset] == UInt8(ascii: "\n") { offset += 1 }
                    starts.append(offset)
                }
            }
            return starts
        }
    }

    /// The modules the file imports, in order.
    var imports: [String] {
        tree.statements.compactMap { item in
            item.item.as(ImportDeclSyntax.self).map { $0.path.trimmedText }
        }
    }
}
#endif
