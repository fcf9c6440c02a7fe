#if Txkit
import Foundation

/// The files a ``FileChangeSet`` wrote, as they were before.
package struct FileRestorePoint: Sendable {
    /// Each written file: its absolute path, its path as shown, and its
    /// bytes before (`nil`: it did not exist).
    let files: [(path: String, displayPath: String, original: Data?)]
    /// The folders the write created, parents first.
    let folders: [String]

    /// The paths (as given) of the files written.
    package var writtenPaths: [String] { files.map(\.displayPath) }

    /// Puts every file back byte for byte, removes the files and folders
    /// that did not exist; returns the paths it restored.
    @discardableResult
    package func restore() throws -> [String] {
        let manager = FileManager.default
        var failures: [String] = []
        for file in files.reversed() {
            do {
                if let original = file.original {
                    try original.write(to: URL(fileURLWithPath: file.path), options: .atomic)
                } else if manager.fileExists(atPath: file.path) {
                    try manager.removeItem(atPath: file.path)
                }
            } catch {
                failures.append("\(file.displayPath): \(error.localizedDescription)")
            }
        }
        for folder in folders.reversed() {
            // Only if empty: never remove what someone else put there.
            if (try? manager.contentsOfDirectory(atPath: folder))?.isEmpty == true {
                try? manager.removeItem(atPath: folder)
            }
        }
        if !failures.isEmpty {
            throw GeneratorError.unwritablePath(
                failures.joined(separator: ", "), reason: "could not be restored; see git to recover them")
        }
        return writtenPaths
    }
}
#endif
