import Foundation

/// The Swift files under some paths, read and parsed once.
public final class SourceSet {
    let files: [SourceFile]
    /// The paths as given, for messages.
    let roots: [String]

    /// Reads every `.swift` file under `paths` (files or folders, folders
    /// searched recursively, hidden folders and `.build*` skipped), in
    /// sorted order so that output never depends on the file system.
    public init(paths: [String]) throws {
        roots = paths
        var found: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw GeneratorError.unreadablePath(path, reason: "no such file or folder")
            }
            if !isDirectory.boolValue {
                found.append(path)
                continue
            }
            guard let enumerator = manager.enumerator(atPath: path) else {
                throw GeneratorError.unreadablePath(path, reason: "the folder cannot be listed")
            }
            while let relative = enumerator.nextObject() as? String {
                let last = (relative as NSString).lastPathComponent
                if last.hasPrefix(".") {
                    enumerator.skipDescendants()
                    continue
                }
                if relative.hasSuffix(".swift") {
                    found.append((path as NSString).appendingPathComponent(relative))
                }
            }
        }
        files = try Array(Set(found)).sorted().map { try SourceFile(path: $0) }
    }

    /// Parses in-memory sources, for tests: `(path, text)` pairs.
    public init(sources: [(path: String, text: String)]) throws {
        roots = sources.map(\.path)
        files = try sources.map { try SourceFile(path: $0.path, text: $0.text) }
    }
}
