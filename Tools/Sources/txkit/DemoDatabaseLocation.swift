import Foundation
import Messaging
import TransactionKitSQLite

/// Where `txkit demo` keeps its database: a temporary file (removed when the
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

    /// Opens and migrates the database.
    func open() throws -> SQLiteDB {
        switch kind {
        // snippet:begin open-database
        case .temporary(let directory):
            try SQLiteDB(path: directory.appendingPathComponent("messaging.sqlite").path, migrator: MessagingSchema.migrator)
        case .file(let path):
            try SQLiteDB(path: path, migrator: MessagingSchema.migrator)
        case .memory:
            try SQLiteDB.inMemory(migrator: MessagingSchema.migrator)
        // snippet:end open-database
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
