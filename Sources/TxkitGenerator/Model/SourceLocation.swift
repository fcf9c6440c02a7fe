#if Txkit
/// Where a declaration or a use is in the sources: a file and a line,
/// written `path:line` in messages.
package struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file's path, as the generator read it.
    package var path: String
    /// The line, from 1.
    package var line: Int

    package init(path: String, line: Int) {
        self.path = path
        self.line = line
    }

    /// `path:line`.
    package var description: String { "\(path):\(line)" }
}
#endif
