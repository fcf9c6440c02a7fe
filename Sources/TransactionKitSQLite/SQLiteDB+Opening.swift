#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDB
import TransactionKit

extension SQLiteDB {
    /// Checks the path, creates the file with 0600 permissions if needed,
    /// and opens a WAL `DatabasePool` on it.
    static func openPool(path: String, options: Options) throws(DBError) -> DatabasePool {
        try checkDirectory(of: path)
        if options.readOnly {
            try checkFileExists(at: path)
        } else {
            try createFileIfNeeded(at: path)
            alignCompanionPermissions(with: path)
        }
        var configuration = options.grdbConfiguration(label: path)
        configuration.readonly = options.readOnly
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            if !options.readOnly {
                // GRDB sets synchronous=NORMAL with WAL; apply the chosen
                // durability on the writer connection, the only one that commits.
                try pool.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA synchronous = \(options.durability.pragmaValue)")
                }
            }
        } catch {
            throw SQLiteErrors.openError(from: error, path: path)
        }
        return pool
    }

    /// A read-only open never creates the file.
    private static func checkFileExists(at path: String) throws(DBError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DBError(
                kind: .cannotOpen, operation: .open, path: path,
                message: "no database file at this path; a read-only open never creates one")
        }
    }

    private static func checkDirectory(of path: String) throws(DBError) {
        let directory = (path as NSString).deletingLastPathComponent
        let directoryPath = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directoryPath, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DBError(
                kind: .missingDirectory, operation: .open, path: path,
                message: "no directory at \(directoryPath)")
        }
    }

    private static func createFileIfNeeded(at path: String) throws(DBError) {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            closeDescriptor(descriptor)
            return
        }
        let code = errno
        switch code {
        case EEXIST:
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw DBError(kind: .cannotOpen, operation: .open, path: path, message: "the path is a directory")
            }
        case EACCES, EROFS, EPERM:
            throw DBError(
                kind: .readOnly, operation: .open, path: path,
                message: "cannot create the file: \(String(cString: strerror(code)))")
        default:
            throw DBError(
                kind: .cannotOpen, operation: .open, path: path,
                message: "cannot create the file: \(String(cString: strerror(code)))")
        }
    }

    /// Gives the `-wal` and `-shm` files the permissions of the database
    /// file when the file is writable and they are not.
    ///
    /// SQLite creates both companions with the mode of the database file. A
    /// connection opened while the file was read-only (for example an open
    /// that failed with `.readOnly`) therefore leaves read-only companions
    /// behind, and they keep the database read-only after the file's
    /// permissions were restored: the fault would outlive its cause.
    private static func alignCompanionPermissions(with path: String) {
        var file = stat()
        guard stat(path, &file) == 0, access(path, W_OK) == 0 else {
            return
        }
        let mode = file.st_mode & 0o777
        for companionPath in [path + "-wal", path + "-shm"] {
            var companion = stat()
            guard lstat(companionPath, &companion) == 0,
                companion.st_mode & S_IFMT == S_IFREG,
                companion.st_uid == file.st_uid,
                companion.st_mode & 0o777 != mode
            else {
                continue
            }
            _ = chmod(companionPath, mode)
        }
    }

    /// Checks that a database opened read-only needs no migration: a
    /// read-only open applies none, and must not pretend the schema is
    /// current.
    func checkNoPendingMigration(_ migrator: DatabaseMigrator) throws(DBError) {
        let applied: Set<String>
        do {
            applied = try writer.read { db in try migrator.appliedIdentifiers(db) }
        } catch {
            throw SQLiteErrors.storageError(from: error, path: path, operation: .migrate)
                ?? SQLiteErrors.other(error, path: path, operation: .migrate)
        }
        let pending = migrator.migrations.filter { !applied.contains($0) }
        if let first = pending.first {
            throw DBError(
                kind: .readOnly, operation: .migrate, path: path,
                message: "opened read-only, but \(pending.count) migration(s) are not applied yet, "
                    + "starting with \"\(first)\"; open it once without the read-only option to migrate it")
        }
    }

    /// Runs the migrator; on failure, names the migration that failed.
    func migrate(with migrator: DatabaseMigrator) throws(DBError) {
        do {
            try migrator.migrate(writer)
        } catch {
            if let storageError = SQLiteErrors.storageError(from: error, path: path, operation: .migrate) {
                throw storageError
            }
            let applied = (try? writer.read { db in try migrator.appliedIdentifiers(db) }) ?? []
            let failed = migrator.migrations.first { !applied.contains($0) } ?? "?"
            throw DBError(
                kind: .migrationFailed, operation: .migrate, path: path,
                resultCode: (error as? DatabaseError)?.extendedResultCode.rawValue,
                message: "migration \"\(failed)\" failed: \(error); the database stays at \(applied.count) applied migration(s)",
                underlyingError: error)
        }
    }
}

/// The C library's `close(2)`, out of reach of ``SQLiteDB/close()`` inside
/// the type.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
