/// An error raised by the storage under a ``DB``: opening, migrating,
/// beginning or committing a transaction failed, or the storage reported a
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
/// Errors your own code throws in a block, and SQL errors about your data (a
/// constraint violation, a syntax error), are rethrown unwrapped. Faults of
/// the environment (busy, locked, full disk, read-only, corrupt file, not a
/// database, I/O error, missing directory) always come out as a `DBError`.
/// A write that failed with one was rolled back, unless ``isOutcomeUnknown``
/// says that it may have been committed.
///
/// **Printing:** ``description`` escapes control characters, bidirectional
/// controls and backslashes in the path; ``path`` holds it unchanged.
public struct DBError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in terms a caller can act on.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Another connection or process held a lock beyond the busy timeout
        /// (`SQLITE_BUSY`), or SQLite's write-ahead-log locking protocol kept
        /// failing while other processes changed the log (`SQLITE_PROTOCOL`).
        /// Retrying later may succeed.
        case busy
        /// A table is locked by the same connection (an unfinished
        /// statement still reads it) or, with a shared cache, by another
        /// connection of this process (`SQLITE_LOCKED`). Waiting does not
        /// help: the statement that holds the table must finish first.
        case locked
        /// The disk, or the database's size limit, is full (`SQLITE_FULL`).
        case diskFull
        /// The database file, its `-wal` or `-shm` file, or its directory
        /// cannot be written, or the file was moved or deleted while open
        /// (`SQLITE_READONLY` and its extended codes); or the database was
        /// opened read-only on purpose, or given only the application's
        /// reader (`SQLiteDB.adopter(ofReader:)`), and refuses writes.
        case readOnly
        /// The file is an SQLite database whose content is damaged
        /// (`SQLITE_CORRUPT`).
        case corrupt
        /// The file is not an SQLite database at all (`SQLITE_NOTADB`): a
        /// text file, another format, or an encrypted database opened
        /// without its key. The file was not changed.
        case notADatabase
        /// The file is an SQLite database that the migrations given to open
        /// it did not create: it has tables, but none of these migrations
        /// was ever applied to it. It was not changed.
        case foreignDatabase
        /// An integrity check found problems in the file; the message lists
        /// them.
        case integrityCheckFailed
        /// The directory that should hold the database does not exist.
        case missingDirectory
        /// The file could not be opened for another reason: the path names
        /// a directory, a device or another file that is not a regular file,
        /// the path is too long, or permission is denied (`SQLITE_CANTOPEN`,
        /// `SQLITE_PERM`).
        case cannotOpen
        /// The operating system reported an I/O error (`SQLITE_IOERR`).
        /// While committing, the outcome of the write is unknown: see
        /// ``DBError/isOutcomeUnknown``.
        case ioError
        /// A schema migration failed; the database stays at its last good version.
        case migrationFailed
        /// The database was closed.
        case closed
        /// The transaction conflicted with a concurrent one and was rolled
        /// back (PostgreSQL's serialization failure, SQLSTATE `40001`, or a
        /// deadlock, `40P01`). Retrying the whole transaction is safe and
        /// usually succeeds; `PostgresDB` can retry it for you.
        case conflict
        /// The database server could not be reached, refused the connection
        /// or its credentials, or closed the connection (PostgreSQL). The
        /// ``DBError/path`` names the host and the database, never the
        /// password. While committing, the outcome of the write is unknown:
        /// see ``DBError/isOutcomeUnknown``.
        case connectionFailed
        /// No open `SQLiteDB` adopted the application's pool or queue that
        /// the database was given (`SQLiteDB.adopter(of:)`,
        /// `SQLiteDB.adopter(ofReader:)`), or it was given a reader that is
        /// not a pool or queue: adopt the pool or queue at startup with
        /// `SQLiteDB(adopting:)`, and give that. Nothing ran.
        case notAdopted
        /// Any other storage error; see ``DBError/code`` and
        /// ``DBError/message``.
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
    /// The path of the database file, or a description such as `in-memory` or
    /// `MockDB`; for a server, its address and database
    /// (`postgresql://user@host:5432/app`, without the password).
    public var path: String
    /// The storage's own code for the error, when it reported one. Each
    /// backend module also offers it typed (the SQLite module's
    /// `resultCode`, the PostgreSQL module's `sqlState`).
    public var code: Code?
    /// The storage engine's own message.
    public var message: String
    /// The original error, when there was one.
    public var underlyingError: (any Error)?
    /// Advice that replaces the kind's generic advice, for errors whose
    /// cause is known precisely (a database opened read-only on purpose).
    package var specificAdvice: String?
    /// Words that replace the kind's generic summary, for errors whose
    /// cause is known precisely (a server that refused the credentials).
    package var specificSummary: String?

    /// Creates an error. Backends create them; you rarely need to, except in
    /// tests that check how your code reacts to a storage fault.
    public init(
        kind: Kind,
        operation: Operation,
        path: String,
        code: Code? = nil,
        message: String,
        underlyingError: (any Error)? = nil
    ) {
        self.kind = kind
        self.operation = operation
        self.path = path
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
    }

    /// Whether the write that failed may nevertheless have been committed.
    ///
    /// ```swift
    /// } catch let error as DBError where error.isOutcomeUnknown {
    ///     // Reopen, then look for the row before writing it again.
    /// }
    /// ```
    ///
    /// `true` for an I/O error while committing (``Kind/ioError`` with
    /// ``Operation/commit``): SQLite may have written the whole transaction
    /// to the write-ahead log before the operating system reported the
    /// error (a failed `fsync`, for example), and the next connection that
    /// recovers the log then sees the transaction as committed. Reopen the
    /// database and check. Also `true` for a connection lost while
    /// committing (``Kind/connectionFailed`` with ``Operation/commit``): the
    /// server may have committed before the connection dropped. `false` for
    /// every other error: the write was rolled back.
    public var isOutcomeUnknown: Bool {
        operation == .commit && (kind == .ioError || kind == .connectionFailed)
    }

    /// A one-line explanation naming the path, the cause and what to do.
    ///
    /// The path and the message are printed with control characters,
    /// bidirectional-text controls and backslashes escaped, so the
    /// description is always one line that shows every character of the path.
    public var description: String {
        var text = "\(specificSummary ?? kind.summary) while \(operation.gerund) \(Self.escaped(path))"
        if let code {
            text += " (\(Self.escaped(code.description)): \(Self.escaped(message, backslashes: false)))"
        } else if !message.isEmpty {
            text += " (\(Self.escaped(message, backslashes: false)))"
        }
        return text + ". " + (specificAdvice ?? advice)
    }

    private var advice: String {
        if isOutcomeUnknown && kind == .connectionFailed {
            return "The outcome of this write is unknown: the server may have committed it before the connection "
                + "was lost. Check whether the write is there before repeating it."
        }
        if isOutcomeUnknown {
            return "The outcome of this write is unknown: the transaction may already be in the write-ahead log "
                + "and become visible when the database is next opened. Reopen the database and check "
                + "whether the write is there before repeating it; then check the storage device."
        }
        return kind.advice
    }

    /// `text` with control characters (C0, DEL, C1), bidirectional-text
    /// controls and, when `backslashes` is true, backslashes written as
    /// Swift escapes, so that it prints as one unambiguous line.
    package static func escaped(_ text: String, backslashes: Bool = true) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\" where backslashes: result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                let value = scalar.value
                let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
                let isBidiControl = value == 0x061C || value == 0x200E || value == 0x200F
                    || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
                if isControl || isBidiControl {
                    result += "\\u{\(String(value, radix: 16, uppercase: true))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
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
    package static func closedDatabase(
        path: String, operation: Operation, underlyingError: (any Error)? = nil
    ) -> DBError {
        DBError(
            kind: .closed, operation: operation, path: path,
            message: "close() was called on this database", underlyingError: underlyingError)
    }
}

extension DBError.Kind {
    var summary: String {
        switch self {
        case .busy: "database is busy"
        case .locked: "database table is locked by this process"
        case .diskFull: "disk or database size limit is full"
        case .readOnly: "database is read-only"
        case .corrupt: "database file is corrupt"
        case .notADatabase: "file is not a database of this kind"
        case .foreignDatabase: "file is a database these migrations did not create"
        case .integrityCheckFailed: "integrity check found problems"
        case .missingDirectory: "directory does not exist"
        case .cannotOpen: "cannot open database file"
        case .ioError: "disk I/O error"
        case .migrationFailed: "migration failed"
        case .closed: "database is closed"
        case .conflict: "transaction conflicted with a concurrent transaction"
        case .connectionFailed: "cannot reach the database server"
        case .notAdopted: "no database adopted the application's pool or queue"
        case .other: "database error"
        }
    }

    var advice: String {
        switch self {
        case .busy:
            "Another connection or process holds a lock: retry later, shorten long transactions, or raise the busy timeout."
        case .locked:
            "Another statement of the same connection (an unfinished query still being iterated) or another "
                + "connection sharing its cache uses the table; this is not another process, and waiting does not "
                + "help: finish or reset that statement first."
        case .diskFull:
            "Free disk space (or raise the size limit); nothing of the failed transaction was kept."
        case .readOnly:
            "Check the permissions of the file, of its -wal and -shm files and of its directory, and that the volume is writable."
        case .corrupt:
            "Keep a copy of the file as it is, then restore it from a backup or recover what is still readable "
                + "into a new file; the storage stops at the damage it detects, but cannot promise to detect all of it."
        case .notADatabase:
            "Check the path: it names a file that is not a database of this kind (or one encrypted with a key that "
                + "was not given). The file was left unchanged."
        case .foreignDatabase:
            "Check the path. To take this database over, open it with the option that adopts a foreign database; "
                + "the file was left unchanged."
        case .integrityCheckFailed:
            "Keep a copy of the file as it is, then restore it from a backup or recover what is still readable into a new file."
        case .missingDirectory:
            "Create the directory first, or choose a path in an existing directory."
        case .cannotOpen:
            "Check that the path names a regular file you may open, not a directory or a device."
        case .ioError:
            "Check the storage device and the file system."
        case .migrationFailed:
            "Fix the failing migration; the database was left at its last successful migration."
        case .closed:
            "Keep the database open for as long as transactions are run on it."
        case .conflict:
            "Nothing of the transaction was kept; run the whole transaction again (the database does it itself "
                + "when its configuration allows retries)."
        case .connectionFailed:
            "Check that the server runs and accepts connections at this address, and the user name, password "
                + "and database name."
        case .notAdopted:
            "Adopt the application's pool or queue once at startup, after its migrations, with SQLiteDB(adopting:), "
                + "and keep that database open; nothing ran."
        case .other:
            "See the storage's code and message."
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
