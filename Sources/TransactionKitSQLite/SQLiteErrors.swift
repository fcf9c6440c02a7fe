import Foundation
import GRDB
import TransactionKit

/// Turns GRDB and SQLite errors into ``DBError``.
package enum SQLiteErrors {
    /// The `DBError` kind of an SQLite result code that is a storage
    /// fault, or `nil` for errors about the data or the SQL.
    ///
    /// `SQLITE_PROTOCOL` is reported as `.busy`: SQLite returns it when its
    /// write-ahead-log locking protocol failed many times in a row because
    /// other connections kept changing the log, a contention that a later
    /// retry overcomes.
    static func faultKind(of code: ResultCode) -> DBError.Kind? {
        switch code.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_PROTOCOL: .busy
        case .SQLITE_LOCKED: .locked
        case .SQLITE_FULL: .diskFull
        case .SQLITE_READONLY: .readOnly
        case .SQLITE_CORRUPT: .corrupt
        case .SQLITE_NOTADB: .notADatabase
        case .SQLITE_CANTOPEN, .SQLITE_PERM: .cannotOpen
        case .SQLITE_IOERR: .ioError
        default: nil
        }
    }

    /// Advice for the extended result codes whose cause is precise.
    static func specificAdvice(for code: ResultCode) -> String? {
        switch code {
        case .SQLITE_READONLY_DBMOVED:
            "The database file was moved, renamed or deleted while it was open; SQLite refuses to write to it so "
                + "that no write disappears with an unlinked file. Reopen the database at its current path."
        case .SQLITE_READONLY_RECOVERY, .SQLITE_READONLY_CANTINIT:
            "The write-ahead log needs recovery, or its -shm index needs initializing, and this connection "
                + "cannot write: open the database once with write access to the file, its -wal and -shm files "
                + "and its directory."
        case .SQLITE_READONLY_DIRECTORY:
            "The directory is read-only, so SQLite cannot create the -wal or -shm file next to the database: "
                + "make the directory writable."
        case .SQLITE_READONLY_CANTLOCK:
            "The -shm file is read-only and SQLite cannot lock it: make the -shm file writable, or open the "
                + "database once with write access."
        case .SQLITE_READONLY_ROLLBACK:
            "A journal left by an interrupted write must be rolled back first, which needs write access: open "
                + "the database once with write access to the file and its directory."
        case .SQLITE_CORRUPT, .SQLITE_CORRUPT_INDEX, .SQLITE_CORRUPT_SEQUENCE, .SQLITE_CORRUPT_VTAB:
            "Keep a copy of the file as it is, then restore it from a backup or recover what is still readable "
                + "into a new file (the sqlite3 shell's .recover command); SQLite stops at the damage it detects, "
                + "but cannot promise to detect all of it."
        case .SQLITE_NOTADB:
            "Check the path: it names a file that is not an SQLite database (or one encrypted with a key that was "
                + "not given). The file was left unchanged."
        case .SQLITE_PROTOCOL:
            "SQLite's write-ahead-log locking kept failing while other processes changed the log: retry; if it "
                + "persists, check that the file system supports POSIX locks and shared memory (not a network share)."
        default:
            nil
        }
    }

    /// SQLite's `SQLITE_CONSTRAINT` as a ``DBConstraintViolation``, with the
    /// table and columns SQLite names in its message
    /// (`UNIQUE constraint failed: user.name`), or `nil` for other errors.
    static func constraintViolation(from error: any Error, path: String) -> DBConstraintViolation? {
        guard let error = error as? DatabaseError, error.resultCode.primaryResultCode == .SQLITE_CONSTRAINT else {
            return nil
        }
        let kind: DBConstraintViolation.Kind
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE: kind = .unique
        case .SQLITE_CONSTRAINT_PRIMARYKEY: kind = .primaryKey
        case .SQLITE_CONSTRAINT_FOREIGNKEY: kind = .foreignKey
        case .SQLITE_CONSTRAINT_NOTNULL: kind = .notNull
        case .SQLITE_CONSTRAINT_CHECK: kind = .check
        default: kind = .other
        }
        let message = error.message ?? "\(error.resultCode)"
        var violation = DBConstraintViolation(kind: kind, path: path, message: message, underlyingError: error)
        // "<KIND> constraint failed: <detail>", where detail is
        // "table.column, table.column" or a CHECK constraint's name.
        if let colon = message.range(of: "constraint failed: ") {
            let detail = String(message[colon.upperBound...])
            if kind == .check {
                violation.constraint = detail
            } else {
                let qualified = detail.components(separatedBy: ", ")
                let parts = qualified.map { $0.split(separator: ".", maxSplits: 1).map(String.init) }
                if parts.allSatisfy({ $0.count == 2 }), let table = parts.first?.first {
                    violation.table = table
                    violation.columns = parts.map { $0[1] }
                }
            }
        }
        return violation
    }

    /// A `DBError` for a storage fault, or `nil` when `error` is not one.
    ///
    /// - Parameter isClosed: Whether ``SQLiteDB/close()`` was called: GRDB
    ///   then fails every access with `SQLITE_MISUSE`, which is reported as
    ///   `.closed`. The result code and this state decide it, never GRDB's
    ///   message text; an `SQLITE_MISUSE` of an open database (a bug in the
    ///   calling SQL, such as two statements in one) is not a storage fault.
    static func storageError(
        from error: any Error, path: String, operation: DBError.Operation, isClosed: Bool = false
    ) -> DBError? {
        if let error = error as? DBError {
            return error
        }
        if error is SQLiteTransactionAborted {
            return DBError(
                kind: .other, operation: operation, path: path,
                message: "the transaction ended before its block returned: SQLite rolled it back by itself after "
                    + "an error that the block caught and did not rethrow (an interrupt, a full disk, an I/O "
                    + "error…), or the block ran ROLLBACK or COMMIT itself; no completion runs and the block's result is "
                    + "discarded, but statements that ran after the transaction ended ran outside it and stay "
                    + "committed, as does what a COMMIT run by the block committed: rethrow SQLite's errors")
        }
        guard let error = error as? DatabaseError else {
            return nil
        }
        if error.resultCode == .SQLITE_MISUSE, isClosed {
            return DBError.closedDatabase(path: path, operation: operation, underlyingError: error)
        }
        guard var kind = faultKind(of: error.resultCode) else {
            return nil
        }
        if error.extendedResultCode == .SQLITE_READONLY, operation == .read {
            // Plain SQLITE_READONLY in a read transaction: writing through a
            // read transaction, a bug in the calling SQL, not a read-only
            // file. (The extended read-only codes are faults of the
            // environment, wherever they happen.)
            return nil
        }
        if kind == .cannotOpen, operation == .open, !directoryIsWritable(of: path) {
            kind = .readOnly
        }
        var storageError = DBError(
            kind: kind, operation: operation, path: path,
            resultCode: error.extendedResultCode.rawValue,
            message: error.message ?? "\(error.resultCode)",
            underlyingError: error)
        storageError.specificAdvice = specificAdvice(for: error.extendedResultCode)
        return storageError
    }

    /// A `DBError` for any error raised while opening.
    package static func openError(from error: any Error, path: String) -> DBError {
        storageError(from: error, path: path, operation: .open) ?? other(error, path: path, operation: .open)
    }

    /// A `DBError` of kind `.other` wrapping `error`.
    package static func other(_ error: any Error, path: String, operation: DBError.Operation) -> DBError {
        let databaseError = error as? DatabaseError
        return DBError(
            kind: .other, operation: operation, path: path,
            resultCode: databaseError?.extendedResultCode.rawValue,
            message: databaseError?.message ?? "\(error)",
            underlyingError: error)
    }

    private static func directoryIsWritable(of path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        return FileManager.default.isWritableFile(atPath: directory.isEmpty ? "." : directory)
    }
}
