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
    let converter: SourceLocationConverter
    /// The command in the file's txkit marker, if txkit generated it.
    let generatedBy: GeneratedFileMarker?

    /// Parses `text`; a file with syntax errors is refused with the
    /// compiler-style diagnostics, so nothing is generated from a guess.
    init(path: String, text: String) throws {
        self.path = path
        generatedBy = GeneratedFileMarker(firstLine: text.prefix { $0 != "\n" })
        tree = Parser.parse(source: text)
        converter = SourceLocationConverter(fileName: path, tree: tree)
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

    func line(of node: some SyntaxProtocol) -> Int {
        node.startLocation(converter: converter).line
    }

    /// The modules the file imports, in order.
    var imports: [String] {
        tree.statements.compactMap { item in
            item.item.as(ImportDeclSyntax.self).map { $0.path.trimmedText }
        }
    }
}
#endif
