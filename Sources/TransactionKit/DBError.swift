/// An error raised by the storage under a ``DB``: opening, migrating,
/// beginning or committing a transaction failed, or SQLite reported a storage
/// fault while a block ran.
///
/// ```swift
/// do {
///     try db.write { tx in try messages.insert(message, tx) }
/// } catch let error as DBError {
///     switch error.kind {
///     case .diskFull: showLowStorageAlert()
///     case .busy: scheduleRetry()
///     default: log(error)   // the description names the path and the cause
///     }
/// }
/// ```
///
/// Errors that your own code throws inside a block, and SQL errors that are
/// about your data (a constraint violation, a syntax error), are not wrapped:
/// they are rethrown unchanged. Faults of the environment (busy, locked, full
/// disk, read-only, corrupt file, I/O error, missing directory) always come
/// out as a `DBError`, wherever SQLite noticed them.
///
/// A `DBError` never means that committed data was damaged by TransactionKit:
/// the transaction that failed was rolled back, and what was committed before
/// it stays readable.
public struct DBError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in terms a caller can act on.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Another connection or process held a lock beyond the busy timeout
        /// (`SQLITE_BUSY`, `SQLITE_LOCKED`). Retrying later may succeed.
        case busy
        /// The disk, or the database's size limit, is full (`SQLITE_FULL`).
        case diskFull
        /// The database file or its directory cannot be written (`SQLITE_READONLY`).
        case readOnly
        /// The file is not a database, or is damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
        case corrupt
        /// The directory that should hold the database does not exist.
        case missingDirectory
        /// The file could not be opened for another reason (`SQLITE_CANTOPEN`, `SQLITE_PERM`).
        case cannotOpen
        /// The operating system reported an I/O error (`SQLITE_IOERR`).
        case ioError
        /// A schema migration failed; the database stays at its last good version.
        case migrationFailed
        /// The database was closed.
        case closed
        /// Any other storage error; see ``DBError/resultCode`` and ``DBError/message``.
        case other
    }

    /// What the database was doing when the error happened.
    public enum Operation: String, Sendable, Hashable {
        /// Opening the connection or configuring it.
        case open
        /// Running migrations.
        case migrate
        /// Beginning or running a read transaction.
        case read
        /// Beginning or running a write transaction.
        case write
        /// Committing a write transaction.
        case commit
        /// Closing the database (its final checkpoint, then its connections).
        case close
    }

    /// What went wrong.
    public var kind: Kind
    /// What the database was doing.
    public var operation: Operation
    /// The path of the database file, or a description such as `in-memory` or `MockDB`.
    public var path: String
    /// The underlying extended result code, when the storage is SQLite.
    public var resultCode: Int32?
    /// The storage engine's own message.
    public var message: String
    /// The original error, when there was one.
    public var underlyingError: (any Error)?
    /// Advice that replaces the kind's generic advice, for errors whose
    /// cause is known precisely (a database opened read-only on purpose).
    var specificAdvice: String?

    /// Creates an error. Backends create them; you rarely need to, except in
    /// tests that check how your code reacts to a storage fault.
    public init(
        kind: Kind,
        operation: Operation,
        path: String,
        resultCode: Int32? = nil,
        message: String,
        underlyingError: (any Error)? = nil
    ) {
        self.kind = kind
        self.operation = operation
        self.path = path
        self.resultCode = resultCode
        self.message = message
        self.underlyingError = underlyingError
    }

    /// A one-line explanation naming the path, the cause and what to do.
    public var description: String {
        var text = "\(kind.summary) while \(operation.gerund) \(path)"
        if let resultCode {
            text += " (SQLite result code \(resultCode): \(message))"
        } else if !message.isEmpty {
            text += " (\(message))"
        }
        return text + ". " + (specificAdvice ?? kind.advice)
    }
}

extension DBError {
    /// The error of a write on a database opened read-only on purpose
    /// (`SQLiteDB.Options.readOnly`, `MockDB(isReadOnly:)`): the same value
    /// from every backend.
    package static func writeToReadOnlyDatabase(path: String) -> DBError {
        var error = DBError(
            kind: .readOnly, operation: .write, path: path,
            message: "the database was opened read-only")
        error.specificAdvice = "Open it without the read-only option to write, or move this write elsewhere."
        return error
    }

    /// The error of a transaction begun after `close()`: the same value from
    /// every backend.
    package static func closedDatabase(path: String, operation: Operation) -> DBError {
        DBError(
            kind: .closed, operation: operation, path: path,
            message: "close() was called on this database")
    }
}

extension DBError.Kind {
    var summary: String {
        switch self {
        case .busy: "database is busy"
        case .diskFull: "disk or database size limit is full"
        case .readOnly: "database is read-only"
        case .corrupt: "database file is corrupt or not a database"
        case .missingDirectory: "directory does not exist"
        case .cannotOpen: "cannot open database file"
        case .ioError: "disk I/O error"
        case .migrationFailed: "migration failed"
        case .closed: "database is closed"
        case .other: "database error"
        }
    }

    var advice: String {
        switch self {
        case .busy:
            "Another connection or process holds a lock: retry later, shorten long transactions, or raise the busy timeout."
        case .diskFull:
            "Free disk space (or raise the size limit); nothing of the failed transaction was kept."
        case .readOnly:
            "Check the permissions of the file and of its directory, and that the volume is writable."
        case .corrupt:
            "Restore the file from a backup or delete it; TransactionKit will not write to a damaged file."
        case .missingDirectory:
            "Create the directory first, or choose a path in an existing directory."
        case .cannotOpen:
            "Check that the path names a file you may open, not a directory."
        case .ioError:
            "Check the storage device and the file system."
        case .migrationFailed:
            "Fix the failing migration; the database was left at its last successful migration."
        case .closed:
            "Keep the database open for as long as transactions are run on it."
        case .other:
            "See the SQLite result code and message."
        }
    }
}

extension DBError.Operation {
    var gerund: String {
        switch self {
        case .open: "opening"
        case .migrate: "migrating"
        case .read: "reading"
        case .write: "writing"
        case .commit: "committing to"
        case .close: "closing"
        }
    }
}
