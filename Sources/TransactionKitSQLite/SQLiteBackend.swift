import GRDB
import TransactionKit

/// The storage side of ``SQLiteDB``: GRDB transactions on a `DatabaseWriter`.
struct SQLiteBackend: TransactionBackend {
    let writer: any DatabaseWriter
    let path: String

    var isMock: Bool { false }

    func performRead<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        try writer.read { db in try body(db) }
    }

    func performWrite<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        try writer.writeWithoutTransaction { db in
            try Self.inImmediateTransaction(db, body)
        }
    }

    func performRead<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R {
        try await writer.read { db in try body(db) }
    }

    func performWrite<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R {
        try await writer.writeWithoutTransaction { db in
            try Self.inImmediateTransaction(db, body)
        }
    }

    /// `BEGIN IMMEDIATE`, the body, `COMMIT`; `ROLLBACK` if anything throws.
    private static func inImmediateTransaction<R>(_ db: Database, _ body: (AnyObject?) throws -> R) throws -> R {
        var value: R?
        try db.inTransaction(.immediate) {
            value = try body(db)
            return .commit
        }
        return value!
    }

    /// Errors raised outside the block: storage faults become `DBError`;
    /// a cancelled task's `CancellationError` and a constraint violation
    /// found at commit (a deferred foreign key) are errors about the caller
    /// and its data, and pass through unchanged.
    func storageError(from error: any Error, during operation: DBError.Operation) -> any Error {
        if error is CancellationError || SQLiteErrors.isConstraintViolation(error) {
            return error
        }
        return SQLiteErrors.storageError(from: error, path: path, operation: operation)
            ?? SQLiteErrors.other(error, path: path, operation: operation)
    }

    /// Errors thrown by the block: storage faults become `DBError`, anything
    /// else passes through unchanged. `SQLITE_READONLY` inside a read
    /// transaction is not a fault of the file but an attempt to write through
    /// a read transaction, a bug in the calling SQL: it passes through too.
    func blockError(from error: any Error, during operation: DBError.Operation) -> any Error {
        if error is CancellationError {
            return error
        }
        if operation == .read, SQLiteErrors.isReadOnlyViolation(error) {
            return error
        }
        return SQLiteErrors.storageError(from: error, path: path, operation: operation) ?? error
    }
}
