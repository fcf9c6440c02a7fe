#if Txkit
import Foundation

/// Files to write all or nothing: generated files and consumer edits,
/// checked before the first byte is written.
///
/// ```swift
/// let changes = try FileChangeSet(root: root, files: files, edits: edits)
/// let restorePoint = try changes.write()
/// // … later, if the package no longer builds:
/// try restorePoint.restore()
/// ```
///
/// Before writing, every Swift file is parsed again (a result that does not
/// parse is a bug in txkit, reported with its place), a generated file that
/// exists must carry txkit's marker, and an edited file must still hold the
/// text txkit read. Writing puts each file's new text in a temporary file
/// beside it, then renames them over their targets; when any step fails,
/// the files already renamed get their original bytes back, and the files
/// and folders that did not exist are removed.
package struct FileChangeSet {
    /// One file's new text and what it held before.
    struct Change {
        /// The absolute path.
        var path: String
        /// The path as messages show it.
        var displayPath: String
        /// The new text; `nil` deletes the file.
        var contents: String?
        /// The bytes before; `nil` when the file does not exist.
        var original: Data?
    }

    let changes: [Change]
    /// Called before each rename, with the target's path; tests make a
    /// write fail midway with it.
    var beforeRename: (String) throws -> Void = { _ in }

    /// Reads the current files and checks the new ones.
    ///
    /// - Parameters:
    ///   - root: The folder generated files' paths are relative to.
    ///   - files: Generated files.
    ///   - edits: Consumer edits (their paths as the sources name them:
    ///     absolute, or relative to the current directory).
    ///   - deletions: Generated files to delete (relative to `root`), such
    ///     as the shims `txkit convert` retires; each must carry txkit's
    ///     marker. Restoring puts them back.
    /// - Throws: ``GeneratorError/notGenerated(path:)``,
    ///   ``GeneratorError/unparsableResult(path:diagnostics:)``, or
    ///   ``GeneratorError/unwritablePath(_:reason:)`` for a consumer file
    ///   that changed since it was read. Nothing is written then.
    package init(root: String, files: [GeneratedFile], edits: [ConsumerEdit], deletions: [String] = []) throws {
        try GeneratedFileWriter(root: root).checkOwnership(files)
        var changes: [Change] = []
        var seen: Set<String> = []
        let absolute = { (path: String) in path.hasPrefix("/") ? path : (root as NSString).appendingPathComponent(path) }
        for file in files {
            let path = (absolute(file.path) as NSString).standardizingPath
            guard seen.insert(path).inserted else { continue }
            changes.append(Change(
                path: path, displayPath: file.path, contents: file.contents,
                original: FileManager.default.contents(atPath: path)))
        }
        // A consumer edit's path is the source's as the generator read it:
        // absolute, or relative to the current directory, already through
        // the root (`Sources/App/Managers/M.swift` for `--root Sources/App`).
        let currentDirectory = FileManager.default.currentDirectoryPath
        for edit in edits {
            let fromCurrentDirectory = edit.path.hasPrefix("/")
                ? edit.path : (currentDirectory as NSString).appendingPathComponent(edit.path)
            let path = (fromCurrentDirectory as NSString).standardizingPath
            let current = FileManager.default.contents(atPath: path)
            guard let current, String(decoding: current, as: UTF8.self) == edit.original else {
                throw GeneratorError.unwritablePath(
                    edit.path, reason: "it changed since txkit read it; run the command again")
            }
            guard seen.insert(path).inserted else {
                throw GeneratorError.unwritablePath(edit.path, reason: "txkit would both generate and edit it")
            }
            changes.append(Change(path: path, displayPath: edit.path, contents: edit.edited, original: current))
        }
        for deletion in deletions {
            let path = (absolute(deletion) as NSString).standardizingPath
            guard let current = FileManager.default.contents(atPath: path) else { continue }
            guard GeneratedFileMarker(firstLine: String(decoding: current, as: UTF8.self).prefix { $0 != "\n" }) != nil else {
                throw GeneratorError.notGenerated(path: deletion)
            }
            guard seen.insert(path).inserted else {
                throw GeneratorError.unwritablePath(deletion, reason: "txkit would both write and delete it")
            }
            changes.append(Change(path: path, displayPath: deletion, contents: nil, original: current))
        }
        // On every core (each text parses on its own); the first failure
        // in the changes' order is the one reported, as one by one.
        let swiftTexts = changes.compactMap { change in
            change.path.hasSuffix(".swift") ? change.contents.map { (text: $0, path: change.displayPath) } : nil
        }
        _ = try swiftTexts.concurrentMap { text, path throws(any Error) in try Self.requireParses(text, path: path) }
        self.changes = changes
    }

    /// Refuses Swift text that does not parse.
    static func requireParses(_ text: String, path: String) throws {
        do {
            _ = try SourceFile(path: path, text: text)
        } catch let GeneratorError.unparsableSource(_, diagnostics) {
            throw GeneratorError.unparsableResult(path: path, diagnostics: diagnostics)
        }
    }

    /// The paths (as given) of the files whose text changes.
    package var changedPaths: [String] {
        changes.filter(\.isChange).map(\.displayPath)
    }

    /// Writes every changed file, or none.
    ///
    /// - Returns: What restores the files as they were.
    /// - Throws: ``GeneratorError/unwritablePath(_:reason:)`` after putting
    ///   back every file it had written.
    @discardableResult
    package func write() throws -> FileRestorePoint {
        let manager = FileManager.default
        let pending = changes.filter(\.isChange)
        var createdFolders: [String] = []
        var temporaries: [(change: Change, temporary: String)] = []
        var renamed: [Change] = []
        let restorePoint = { FileRestorePoint(files: renamed.map { ($0.path, $0.displayPath, $0.original) }, folders: createdFolders) }
        do {
            for change in pending {
                guard let contents = change.contents else { continue }
                let folder = (change.path as NSString).deletingLastPathComponent
                createdFolders += try Self.createFolders(folder)
                let temporary = (folder as NSString).appendingPathComponent(
                    ".\((change.path as NSString).lastPathComponent).txkit-\(UUID().uuidString)")
                guard manager.createFile(atPath: temporary, contents: Data(contents.utf8)) else {
                    throw GeneratorError.unwritablePath(change.displayPath, reason: "cannot create a file in \(folder)")
                }
                temporaries.append((change, temporary))
                if change.original != nil, let permissions = try? manager.attributesOfItem(atPath: change.path)[.posixPermissions] {
                    try? manager.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary)
                }
            }
            for (change, temporary) in temporaries {
                try beforeRename(change.path)
                guard rename(temporary, change.path) == 0 else {
                    throw GeneratorError.unwritablePath(
                        change.displayPath, reason: String(cString: strerror(errno)))
                }
                renamed.append(change)
            }
            // Deletions last: a failure before leaves them in place.
            for change in pending where change.contents == nil {
                try beforeRename(change.path)
                guard unlink(change.path) == 0 else {
                    throw GeneratorError.unwritablePath(change.displayPath, reason: String(cString: strerror(errno)))
                }
                renamed.append(change)
            }
        } catch {
            for (_, temporary) in temporaries { try? manager.removeItem(atPath: temporary) }
            _ = try? restorePoint().restore()
            if let error = error as? GeneratorError {
                if case let .unwritablePath(path, reason) = error {
                    throw GeneratorError.unwritablePath(path, reason: reason + "; every file was left as it was")
                }
                throw error
            }
            throw GeneratorError.unwritablePath(
                temporaries.last?.change.displayPath ?? "?", reason: "\(error); every file was left as it was")
        }
        return restorePoint()
    }

    /// Creates `folder` and its missing parents; returns those it created,
    /// deepest last.
    private static func createFolders(_ folder: String) throws -> [String] {
        var missing: [String] = []
        var current = folder
        var isDirectory: ObjCBool = false
        while !current.isEmpty, current != "/", !FileManager.default.fileExists(atPath: current, isDirectory: &isDirectory) {
            missing.insert(current, at: 0)
            current = (current as NSString).deletingLastPathComponent
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return missing
    }
}

extension FileChangeSet.Change {
    /// Whether writing it changes the file: new text, or a deletion of a
    /// file that exists.
    var isChange: Bool {
        guard let contents else { return original != nil }
        return original != Data(contents.utf8)
    }
}
#endif
