import GRDB
import TransactionKit

extension SQLiteDB {
    /// Returns a read transaction that stands for the application's own
    /// GRDB transaction, on the `SQLiteDB` that adopted the pool or queue
    /// `database` belongs to: the bridge for legacy code that holds a
    /// connection but not the adopted database.
    ///
    /// ```swift
    /// // A legacy manager that receives GRDB's connection from its callers:
    /// func unreadCount(for user: User, _ database: Database) throws -> Int {
    ///     try inboxManager.unreadCount(for: user, SQLiteDB.readTransaction(bridging: database))
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of
    /// ``readTransaction(bridging:file:line:)-swift.method`` on the adopting
    /// database, which the application created at startup with
    /// ``init(adopting:)-(DatabasePool)`` (or the queue and writer forms) and
    /// still holds: an adopted database is found while it lives and until
    /// it closes.
    ///
    /// - Warning: A programmer error, naming this call site, when no live
    ///   `SQLiteDB` adopted the pool or queue of `database`, when several did,
    ///   or as for the instance method.
    /// - Parameters:
    ///   - database: The connection the application's block received.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The transaction to pass to migrated code.
    /// - Throws: ``/TransactionKit/DBMisuseError``, only under a test runner,
    ///   after recording the misuse as a test failure.
    public static func readTransaction(
        bridging database: Database,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws(DBMisuseError) -> DBReadTransaction {
        try adopter(of: database, bridge: "readTransaction(bridging:)", at: CallSite(file: file, line: line))
            .readTransaction(bridging: database, file: file, line: line)
    }

    /// Returns a write transaction that stands for the application's own
    /// GRDB write transaction, on the `SQLiteDB` that adopted the pool or
    /// queue `database` belongs to.
    ///
    /// ```swift
    /// try pool.write { database in
    ///     try LegacyImporter.importRows(database)
    ///     try chat.post(draft, SQLiteDB.writeTransaction(bridging: database))
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of
    /// ``writeTransaction(bridging:file:line:)-swift.method`` on the
    /// adopting database (see ``readTransaction(bridging:file:line:)-swift.method``
    /// for how it is found).
    ///
    /// - Warning: A programmer error, naming this call site, when no live
    ///   `SQLiteDB` adopted the pool or queue of `database`, when several did,
    ///   or as for the instance method.
    /// - Parameters:
    ///   - database: The connection the application's `write` block received.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The transaction to pass to migrated code.
    /// - Throws: ``/TransactionKit/DBMisuseError``, only under a test runner,
    ///   after recording the misuse as a test failure.
    public static func writeTransaction(
        bridging database: Database,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws(DBMisuseError) -> DBWriteTransaction {
        try adopter(of: database, bridge: "writeTransaction(bridging:)", at: CallSite(file: file, line: line))
            .writeTransaction(bridging: database, file: file, line: line)
    }

    private static func adopter(of database: Database, bridge: String, at callSite: CallSite) throws(DBMisuseError) -> SQLiteDB {
        let adopters = SQLiteAdopters.shared.adopters(of: database)
        guard adopters.count == 1, let adopter = adopters.first else {
            throw Misuse.report(
                adopters.isEmpty
                    ? "SQLiteDB.\(bridge) received a connection whose pool or queue no open SQLiteDB adopted."
                    : "SQLiteDB.\(bridge) received a connection of a file that \(adopters.count) open SQLiteDBs adopted.",
                fix: "adopt the application's pool once, at startup, with SQLiteDB(adopting:), and keep that database "
                    + "for the application's lifetime (or call readTransaction(bridging:) / writeTransaction(bridging:) "
                    + "on it).",
                at: callSite)
        }
        return adopter
    }
}
