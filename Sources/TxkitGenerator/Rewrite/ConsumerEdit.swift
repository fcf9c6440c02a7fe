#if Txkit
import Foundation

/// The change `txkit shim --apply` makes to one file of a consumer: its
/// text before and after.
public struct ConsumerEdit: Equatable, Sendable {
    /// The file, as the sources name it.
    package var path: String
    package var original: String
    package var edited: String

    package init(path: String, original: String, edited: String) {
        self.path = path
        self.original = original
        self.edited = edited
    }

    /// The edit as a unified diff (`-` today, `+` after `--apply`).
    package var diff: String {
        LineDiff(old: original, new: edited).unified(path: path, old: "now", new: "after --apply")
    }

    /// Writes the edited text, unless the file changed since it was read.
    package func write() throws {
        guard (try? String(contentsOfFile: path, encoding: .utf8)) == original else {
            throw GeneratorError.unwritablePath(path, reason: "it changed since txkit read it; run the command again")
        }
        do {
            try edited.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw GeneratorError.unwritablePath(path, reason: error.localizedDescription)
        }
    }
}
#endif
