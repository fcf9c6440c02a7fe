#if Txkit
import Foundation
import SwiftSyntax
import Testing
@testable import TxkitGenerator

/// The lines the index records come from the file's text, not from
/// swift-syntax's converter (which walks the whole tree): they must be the
/// converter's, whatever the line breaks, the characters before a token or
/// the tokens that span lines.
@Suite("a source file's lines")
struct SourceFileLineTests {
    /// Every token's line, by the file's table and by swift-syntax's.
    private func lines(of text: String) throws -> (own: [Int], converter: [Int]) {
        let file = try SourceFile(path: "/a/Lines.swift", text: text)
        let tokens = Array(file.tree.tokens(viewMode: .sourceAccurate))
        return (tokens.map { file.line(of: $0) }, tokens.map { $0.startLocation(converter: file.converter).line })
    }

    @Test(arguments: [
        ("line feeds", "struct A {\n    func f() {}\n}\n"),
        ("carriage returns and line feeds", "struct A {\r\n    func f() {}\r\n\r\n}\r\n"),
        ("lone carriage returns", "struct A {\r    func f() {}\r}\r"),
        ("mixed, no final break", "struct A {\r\n\n\r    var x = 1\n}"),
        ("multi-byte characters and a multi-line string", "let é = \"\"\"\n  ünïcode 👋\r\n  \"\"\"\n/* a\n comment */ let b = é\n"),
        ("a #sourceLocation directive (physical lines count)", "let a = 1\n#sourceLocation(file: \"x.swift\", line: 100)\nlet b = 2\n#sourceLocation()\nlet c = 3\n"),
    ])
    func everyTokenIsOnTheConvertersLine(_ shape: String, _ text: String) throws {
        let (own, converter) = try lines(of: text)
        #expect(own == converter, "\(shape)")
        #expect(own.last.map { $0 > 1 } == true, "\(shape): the tokens span more than one line")
    }

    @Test func anOffsetPastTheEndIsOnTheLastLine() throws {
        let file = try SourceFile(path: "/a/Lines.swift", text: "let a = 1\nlet b = 2")
        #expect(file.line(at: 0) == 1)
        #expect(file.line(at: 10) == 2)
        #expect(file.line(at: 1_000) == 2)
    }
}
#endif
