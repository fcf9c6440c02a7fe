import GRDB
import TransactionKit

extension SQLiteDB {
    /// Checks the whole database file with SQLite's
    /// `PRAGMA integrity_check`, and throws when it finds a problem.
    ///
    /// ```swift
    /// do {
    ///     try db.checkIntegrity()
    /// } catch let error as DBError where error.kind == .integrityCheckFailed {
    ///     log(error.message)   // the problems SQLite reported
    /// }
    /// ```
    ///
    /// The check reads every page, checks the structure of every table and
    /// index, and that every index matches its table. It reports at most
    /// 100 problems. When the damage stops the check itself (SQLite reports
    /// `SQLITE_CORRUPT` instead of a list), the structural problems found by
    /// `PRAGMA quick_check` are listed, followed by SQLite's message. The
    /// problems are joined with `; ` in ``/TransactionKit/DBError/message``.
    ///
    /// **Cost:** proportional to the file's size, and to the number of index
    /// entries, each of which is looked up in its table (figures in
    /// Benchmarks/README.md). ``Options/integrityCheckOnOpen`` runs the
    /// cheaper `quick_check`, which skips the index-to-table comparison.
    ///
    /// **Transaction semantics:** runs in a read transaction, on a snapshot:
    /// writes go on meanwhile, and are not checked.
    ///
    /// **Thread:** the calling thread waits; the check runs on a reader
    /// connection.
    ///
    /// - Throws: ``/TransactionKit/DBError`` of kind
    ///   ``/TransactionKit/DBError/Kind/integrityCheckFailed`` with operation
    ///   ``/TransactionKit/DBError/Operation/read``, whose message lists the
    ///   problems; or the error that stopped the check itself (for example
    ///   ``/TransactionKit/DBError/Kind/corrupt`` when SQLite cannot even read
    ///   the schema, or ``/TransactionKit/DBError/Kind/closed``).
    public func checkIntegrity() throws(DBError) {
        if engine.backend.closing.isClosed {
            throw DBError.closedDatabase(path: path, operation: .read)
        }
        try Self.runCheck("integrity_check", writer: writer, path: path, operation: .read, onWriter: false)
    }

    /// `PRAGMA quick_check` at open.
    static func quickCheck(writer: any DatabaseWriter, path: String, operation: DBError.Operation) throws(DBError) {
        try runCheck("quick_check", writer: writer, path: path, operation: operation, onWriter: true)
    }

    private static func runCheck(
        _ pragma: String, writer: any DatabaseWriter, path: String, operation: DBError.Operation, onWriter: Bool
    ) throws(DBError) {
        var problems: [String]
        do {
            // At open, on the writer connection: a reader connection opened
            // only for the check would be closed after the writer when the
            // pool closes, and leave the -wal file behind.
            let sql = "PRAGMA \(pragma)"
            problems = onWriter
                ? try writer.writeWithoutTransaction { db in try String.fetchAll(db, sql: sql) }
                : try writer.read { db in try String.fetchAll(db, sql: sql) }
        } catch let error as DatabaseError
            where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode)
        {
            // The check itself stopped at damage it could not step over (a
            // page that is no b-tree page, met while comparing an index
            // with its table): that is its finding.
            problems = ["the check stopped: \(error.message ?? "\(error.resultCode)")"]
            if pragma != "quick_check",
                let structural = try? writer.read({ db in try String.fetchAll(db, sql: "PRAGMA quick_check") }),
                structural != ["ok"]
            {
                problems = structural + problems
            }
        } catch {
            throw SQLiteErrors.storageError(from: error, path: path, operation: operation)
                ?? SQLiteErrors.other(error, path: path, operation: operation)
        }
        guard problems != ["ok"] else {
            return
        }
        throw DBError(
            kind: .integrityCheckFailed, operation: operation, path: path,
            message: "PRAGMA \(pragma) found \(problems.count) problem(s): " + problems.joined(separator: "; "))
    }
}
