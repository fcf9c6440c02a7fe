#if Txkit
import SwiftSyntax

extension SyntaxProtocol {
    /// The node's text without the leading trivia of its first token and
    /// the trailing trivia of its last: what `trimmedDescription` returns,
    /// read from the source bytes instead of from the two copies of the
    /// tree `trimmedDescription` builds (the scans ask for it on every
    /// property, parameter and call).
    var trimmedText: String {
        let bytes = syntaxTextBytes
        let start = leadingTriviaLength.utf8Length
        let end = max(start, bytes.count - trailingTriviaLength.utf8Length)
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
#endif
