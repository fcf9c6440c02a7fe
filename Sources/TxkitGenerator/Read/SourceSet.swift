#if Txkit
import Foundation

/// The Swift files under some paths, read and parsed once.
package final class SourceSet {
    let files: [SourceFile]
    /// The paths as given, for messages.
    let roots: [String]

    /// Reads every `.swift` file under `paths` (files or folders, folders
    /// searched recursively, hidden folders and `.build*` skipped), in
    /// sorted order so that output never depends on the file system.
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
        files = try Self.parse(Array(Set(found)).sorted())
    }

    /// Reads and parses the files on every core (each file is parsed on
    /// its own; the result keeps the order of `paths`).
    private static func parse(_ paths: [String]) throws -> [SourceFile] {
        let results = UnsafeMutableBufferPointer<Result<SourceFile, any Error>>.allocate(capacity: paths.count)
        defer { results.deallocate() }
        nonisolated(unsafe) let slots = results
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            (slots.baseAddress! + index).initialize(to: Result { try SourceFile(path: paths[index]) })
        }
        defer { _ = results.baseAddress.map { $0.deinitialize(count: paths.count) } }
        return try results.map { try $0.get() }
    }

    /// The files whose last path component is `name`.
    func files(named name: String) -> [SourceFile] {
        filesByName[name] ?? []
    }

    private lazy var filesByName: [String: [SourceFile]] = Dictionary(grouping: files) {
        ($0.path as NSString).lastPathComponent
    }

    /// ``filesMentioning(_:)``'s index, built on first use.
    lazy var mentionIndex: [String: [Int]] = Self.buildMentionIndex(of: files)

    /// Path → position in ``files``.
    lazy var positionsByPath: [String: Int] = Dictionary(
        files.enumerated().map { ($0.element.path, $0.offset) }, uniquingKeysWith: { first, _ in first })

    /// Sources already parsed (those of another set, and new ones).
    init(files: [SourceFile]) {
        roots = files.map(\.path)
        self.files = files
    }

    /// Parses in-memory sources, for tests: `(path, text)` pairs.
    package init(sources: [(path: String, text: String)]) throws {
        roots = sources.map(\.path)
        files = try sources.map { try SourceFile(path: $0.path, text: $0.text) }
    }
}
#endif
