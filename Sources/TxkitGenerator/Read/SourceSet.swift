#if Txkit
import Foundation

/// The Swift files under some paths, read and parsed once.
package final class SourceSet {
    let files: [SourceFile]
    /// The paths as given, for messages.
    let roots: [String]

    /// Reads every `.swift` file under `paths` (files or folders, folders
    /// searched recursively, hidden files and folders such as `.build`
    /// skipped, links to folders not followed), in sorted order so that
    /// output never depends on the file system.
    package init(paths: [String]) throws {
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
            guard let swiftFiles = SwiftFileWalk.files(under: path) else {
                throw GeneratorError.unreadablePath(path, reason: "the folder cannot be listed")
            }
            found += swiftFiles
        }
        files = try Self.parse(Array(Set(found)).sorted())
        derived = Derived(files)
    }

    /// Reads and parses the files on every core (each file is parsed on
    /// its own; the result keeps the order of `paths`).
    private static func parse(_ paths: [String]) throws -> [SourceFile] {
        try paths.concurrentMap { path throws(any Error) in try SourceFile(path: path) }
    }

    /// The files whose last path component is `name`.
    func files(named name: String) -> [SourceFile] {
        filesByName[name] ?? []
    }

    private var filesByName: [String: [SourceFile]] { derived.filesByName.value }

    /// ``filesMentioning(_:)``'s index, built on first use.
    var mentionIndex: [String: [Int]] { derived.mentionIndex.value }

    /// Path → position in ``files``.
    var positionsByPath: [String: Int] { derived.positionsByPath.value }

    /// What is read from ``files`` on first use, from any thread.
    private let derived: Derived

    /// The indexes of ``files`` built on first use, once, from any thread
    /// (the scans run on every core).
    private struct Derived {
        let filesByName: ComputedOnce<[String: [SourceFile]]>
        let mentionIndex: ComputedOnce<[String: [Int]]>
        let positionsByPath: ComputedOnce<[String: Int]>

        init(_ files: [SourceFile]) {
            filesByName = ComputedOnce { Dictionary(grouping: files) { ($0.path as NSString).lastPathComponent } }
            mentionIndex = ComputedOnce { SourceSet.buildMentionIndex(of: files) }
            positionsByPath = ComputedOnce {
                Dictionary(files.enumerated().map { ($0.element.path, $0.offset) }, uniquingKeysWith: { first, _ in first })
            }
        }
    }

    /// Sources already parsed (those of another set, and new ones).
    init(files: [SourceFile]) {
        roots = files.map(\.path)
        self.files = files
        derived = Derived(files)
    }

    /// Parses in-memory sources, for tests: `(path, text)` pairs.
    package init(sources: [(path: String, text: String)]) throws {
        roots = sources.map(\.path)
        files = try sources.map { try SourceFile(path: $0.path, text: $0.text) }
        derived = Derived(files)
    }
}
#endif
