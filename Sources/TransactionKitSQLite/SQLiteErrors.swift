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
