#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// How the children of `txkit-torture` report to their parent: one line per
/// fact, written to standard output with unbuffered `write(2)` calls, so
/// that every complete line the parent reads was reported before the child
/// was killed.
enum TortureOutput {
    /// Writes `line` and a newline; exits with status 3 when the parent
    /// closed the pipe.
    static func writeLine(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                Foundation.exit(3)  // The parent closed the pipe.
            }
            written += result
        }
    }

    /// The complete lines of a child's output: a line counts only once its
    /// newline was written.
    static func completeLines(of data: Data) -> [Substring] {
        let text = String(decoding: data, as: UTF8.self)
        guard let lastNewline = text.lastIndex(of: "\n") else { return [] }
        return text[...lastNewline].split(separator: "\n")
    }
}
