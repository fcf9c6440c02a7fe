import Foundation
import GRDB
import TransactionKit

/// Turns GRDB and SQLite errors into ``DBError``.
enum SQLiteErrors {
    /// The `DBError` kind of an SQLite primary result code that is a storage
    /// fault, or `nil` for errors about the data or the SQL.
    static func faultKind(of code: ResultCode) -> DBError.Kind? {
        switch code.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: .busy
        case .SQLITE_FULL: .diskFull
        case .SQLITE_READONLY: .readOnly
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: .corrupt
        case .SQLITE_CANTOPEN, .SQLITE_PERM: .cannotOpen
        case .SQLITE_IOERR: .ioError
        default: nil
        }
    }

    /// Whether `error` is SQLite's `SQLITE_CONSTRAINT` (an error about the data).
    static func isConstraintViolation(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode.primaryResultCode == .SQLITE_CONSTRAINT
    }

    /// A `DBError` for a storage fault, or `nil` when `error` is not one.
    static func storageError(from error: any Error, path: String, operation: DBError.Operation) -> DBError? {
        if let error = error as? DBError {
            return error
        }
        guard let error = error as? DatabaseError else {
            return nil
        }
        if error.message == "Connection is closed" {
            return DBError(
                kind: .closed, operation: operation, path: path,
                resultCode: error.extendedResultCode.rawValue, message: error.message ?? "", underlyingError: error)
        }
        guard var kind = faultKind(of: error.resultCode) else {
            return nil
        }
        if kind == .readOnly, operation == .read {
            // Writing through a read transaction: a bug in the calling SQL,
            // not a read-only file.
            return nil
        }
        if kind == .cannotOpen, operation == .open, !directoryIsWritable(of: path) {
            kind = .readOnly
        }
        return DBError(
            kind: kind, operation: operation, path: path,
            resultCode: error.extendedResultCode.rawValue,
            message: error.message ?? "\(error.resultCode)",
            underlyingError: error)
    }

    /// A `DBError` for any error raised while opening.
    static func openError(from error: any Error, path: String) -> DBError {
        storageError(from: error, path: path, operation: .open) ?? other(error, path: path, operation: .open)
    }

    /// A `DBError` of kind `.other` wrapping `error`.
    static func other(_ error: any Error, path: String, operation: DBError.Operation) -> DBError {
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
