#if Txkit
import Foundation

/// A file the generator writes, with its full contents.
public struct GeneratedFile: Equatable, Sendable {
    /// The path, relative to the project root (the folder of `txkit.json`).
    public var path: String
    public var contents: String

    package init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}

/// Writes generated files under a root folder, or checks them.
public struct GeneratedFileWriter {
    package let root: String

    public init(root: String) {
        self.root = root
    }

    /// What `--check` found for one file.
    public enum Difference: Equatable, Sendable {
        case missing(path: String)
        case differs(path: String, diff: String)

        public var description: String {
            switch self {
            case let .missing(path): return "\(path): missing"
            case let .differs(path, diff): return "\(path): differs from what txkit generates:\n\(diff)"
            }
        }
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : (root as NSString).appendingPathComponent(path)
    }

    /// Refuses, before anything is written, when one of `files` exists
    /// without the marker (somebody wrote it by hand).
    package func checkOwnership(_ files: [GeneratedFile]) throws {
        for file in files {
            guard let existing = try? String(contentsOfFile: absolute(file.path), encoding: .utf8) else { continue }
            let firstLine = existing.prefix { $0 != "\n" }
            if GeneratedFileMarker(firstLine: firstLine) == nil {
                throw GeneratorError.notGenerated(path: file.path)
            }
        }
    }

    /// Writes the files that changed, all or nothing (see
    /// ``FileChangeSet``: each is parsed again first); returns their paths.
    @discardableResult
    public func write(_ files: [GeneratedFile]) throws -> [String] {
        try FileChangeSet(root: root, files: files, edits: []).write().writtenPaths
    }

    /// The files that are missing or differ, each with a unified diff.
    public func check(_ files: [GeneratedFile]) throws -> [Difference] {
        try checkOwnership(files)
        return files.compactMap { file in
            guard let existing = try? String(contentsOfFile: absolute(file.path), encoding: .utf8) else {
                return .missing(path: file.path)
            }
            if existing == file.contents { return nil }
            return .differs(path: file.path, diff: LineDiff(old: existing, new: file.contents).unified(path: file.path))
        }
    }
}
#endif
