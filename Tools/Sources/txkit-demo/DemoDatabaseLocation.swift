import Foundation
import Messaging

/// Where `txkit-demo` keeps its database: a temporary file (removed when the
/// demo ends), a file the user named, or memory.
struct DemoDatabaseLocation {
    private enum Kind {
        case temporary(directory: URL)
        case file(String)
        case memory
    }

    private let kind: Kind

    init(path: String?, inMemory: Bool) throws {
        if inMemory {
            kind = .memory
        } else if let path {
            // The app's GRDB pool would only say "unable to open database
            // file": name the cause first.
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw DemoFailure(
                    "cannot open the demo database: no directory at \(directory). "
                        + "Create the directory first, or choose a path in an existing directory.")
            }
            kind = .file(path)
        } else {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("txkit-demo-\(UUID().uuidString)", isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw DemoFailure("cannot create a temporary directory at \(directory.path): \(error.localizedDescription)")
            }
            kind = .temporary(directory: directory)
        }
    }

    /// Opens the app's database the way the app always has (a GRDB pool on
    /// the file, or a queue in memory) and runs the app's migrations.
    func open() throws -> LegacyAppDatabase {
        switch kind {
        case .temporary(let directory):
            try LegacyAppDatabase(path: directory.appendingPathComponent("messaging.sqlite").path)
        case .file(let path):
            try LegacyAppDatabase(path: path)
        case .memory:
            try LegacyAppDatabase.inMemory()
        }
    }

    /// One line for the newcomer.
    var summary: String {
        switch kind {
        case .temporary(let directory):
            "\(directory.appendingPathComponent("messaging.sqlite").path) (temporary, deleted at the end; --path FILE keeps one)"
        case .file(let path):
            path
        case .memory:
            "in memory (gone when the demo ends)"
        }
    }

    /// The file the user asked to keep, if any.
    var keptPath: String? {
        if case .file(let path) = kind { path } else { nil }
    }

    /// Removes the temporary directory, if there is one.
    func cleanUp() {
        if case .temporary(let directory) = kind {
            try? FileManager.default.removeItem(at: directory)
        }
    }
}
