import Foundation
import GRDB
import TransactionKit

extension SQLiteDB {
    /// Returns a write transaction standing for the application's own GRDB
    /// write transaction, so that legacy code can call migrated code in it.
    ///
    /// ```swift
    /// try pool.write { database in                     // the legacy code's own transaction
    ///     try LegacyImporter.importRows(database)
    ///     let tx = try db.writeTransaction(bridging: database)
    ///     try contactsManager.didImport(count, tx)     // migrated code, in the same transaction
    /// }
    /// ```
    ///
    /// **Transaction semantics:** the returned transaction *is* the
    /// application's (``shimOnlyBridge(_:file:line:)`` returns `database`);
    /// bridging again in it returns the same one. Given the connection of
    /// this database's own write (from ``shimOnlyBridge(_:file:line:)``,
    /// in a wrapper that calls legacy code that bridges back), it returns
    /// that write. Finalizations run once, in
    /// SQLite's commit hook, and may not run statements (use
    /// ``writeTransaction(bridging:file:line:_:)`` for those that write).
    /// Sync completions run after the commit, before the application's
    /// `write` returns, and may not open transactions of this database. No
    /// hook runs after a rollback. Commit observers hear the commit with
    /// every table the application's transaction changed, before or after
    /// bridging, and those declared (they hear the application's
    /// transactions that bridge nothing too: see ``init(adopting:)-(DatabasePool)``).
    ///
    /// **Thread:** the writer's queue, inside the application's `write`; the
    /// transaction is active on the thread that bridged it (a GRDB
    /// transaction left open across accesses is not supported).
    ///
    /// **Lifetime:** until the application's transaction ends; a use after
    /// is an escaped transaction, and a `read` or `write` of this database
    /// on that thread before then is a nested one.
    ///
    /// - Warning: A programmer error, naming this call site, when `database`
    ///   is not inside a transaction, is a read-only connection (use
    ///   ``readTransaction(bridging:file:line:)-swift.method``), or belongs to another
    ///   database; see ``/TransactionKit/DBMisuseError``.
    /// - Parameters:
    ///   - database: The connection the application's `write` block received.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The transaction to pass to migrated code.
    /// - Throws: ``/TransactionKit/DBMisuseError``, only under a test runner,
    ///   after recording the misuse as a test failure.
    public func writeTransaction(
        bridging database: Database,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws(DBMisuseError) -> DBWriteTransaction {
        let callSite = CallSite(file: file, line: line)
        // The connection of this database's own write, handed to legacy code
        // (a shim's wrapper) that bridges it back: that write.
        if let active = ActiveTransactions.active(in: engine.scope, on: database) as? DBWriteTransaction {
            return active
        }
        let connection = ObjectIdentifier(database)
        guard connection == writerConnection else {
            if database.configuration.readonly {
                throw Misuse.report(
                    "writeTransaction(bridging:) received a read-only connection (from a read of the application's).",
                    fix: "bridge it with readTransaction(bridging:), or do the work in the application's write.",
                    at: callSite)
            }
            throw Misuse.report(
                "writeTransaction(bridging:) received a connection of another database than \(path).",
                fix: "bridge a connection of the pool or queue this SQLiteDB adopted.",
                at: callSite)
        }
        try requireTransaction(database, bridge: "writeTransaction(bridging:)", at: callSite)
        if let existing = bridges.write, existing.transaction.isActive {
            return existing.transaction
        }
        let transaction = try engine.beginBridgedWrite(connection: database, at: callSite)
        let observer = SQLiteBridgeObserver(transaction: transaction, connection: connection, bridges: bridges)
        bridges.setWrite(observer)
        database.add(transactionObserver: observer, extent: .nextTransaction)
        return transaction
    }

    /// Runs `block` with a write transaction that stands for the
    /// application's own GRDB write transaction, then runs the finalizations
    /// it registered, still inside the application's transaction: the way to
    /// call migrated code whose finalizations write.
    ///
    /// ```swift
    /// try pool.write { database in
    ///     try LegacyImporter.importRows(database)
    ///     try db.writeTransaction(bridging: database) { tx in
    ///         try chat.post(draft, tx)          // its finalization updates the conversation
    ///     }
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of
    /// ``writeTransaction(bridging:file:line:)-swift.method``, except for finalizations:
    /// the ones registered while `block` ran run when it returns, in the
    /// order of their first registration (the last block per key wins), and
    /// may run statements and use the key-value store. They run again for
    /// keys registered later, at the next such block's end or, without
    /// statements, at the application's commit. When `block` throws, its
    /// finalizations do not run and the error is rethrown: let it reach the
    /// application's `write`, which then rolls back.
    ///
    /// - Parameters:
    ///   - database: The connection the application's `write` block received.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: Runs the migrated code.
    /// - Returns: The value `block` returns.
    /// - Throws: The error of `block` or of a finalization;
    ///   ``/TransactionKit/DBMisuseError`` under a test runner.
    public func writeTransaction<T>(
        bridging database: Database,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: (DBWriteTransaction) throws -> T
    ) throws -> T {
        let transaction = try writeTransaction(bridging: database, file: file, line: line)
        let value = try block(transaction)
        try TransactionEngine<SQLiteBackend>.bridgedBlockDidReturn(transaction)
        return value
    }

    /// Returns a read transaction that stands for the application's own
    /// GRDB transaction, read or write, so that legacy code can call
    /// migrated code that reads.
    ///
    /// ```swift
    /// let badge = try pool.read { database in
    ///     try inboxManager.unreadCount(for: user, db.readTransaction(bridging: database))
    /// }
    /// ```
    ///
    /// **Transaction semantics:** inside the application's write, the
    /// transaction of ``writeTransaction(bridging:file:line:)-swift.method`` (the same
    /// one, seen as a read). Given the connection of this database's own
    /// transaction (from ``shimOnlyBridge(_:file:line:)``), that transaction. Inside the application's read, a pool's or a
    /// queue's, a transaction on that read's snapshot:
    /// ``shimOnlyBridge(_:file:line:)`` returns `database`.
    ///
    /// **Lifetime:** until the application's transaction ends. A use through
    /// ``shimOnlyBridge(_:file:line:)`` after the application's read ended is an
    /// escaped transaction; other uses are caught when they come from
    /// another thread, or once the connection serves another bridged read.
    ///
    /// - Warning: A programmer error, naming this call site, when `database`
    ///   is not inside a transaction or belongs to another database.
    /// - Parameters:
    ///   - database: The connection the application's block received.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The transaction to pass to migrated code.
    /// - Throws: ``/TransactionKit/DBMisuseError``, only under a test runner,
    ///   after recording the misuse as a test failure.
    public func readTransaction(
        bridging database: Database,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws(DBMisuseError) -> DBReadTransaction {
        // The connection of this database's own transaction, handed to
        // legacy code (a shim's wrapper) that bridges it back: that one.
        if let active = ActiveTransactions.active(in: engine.scope, on: database) {
            return active
        }
        let connection = ObjectIdentifier(database)
        let callSite = CallSite(file: file, line: line)
        if connection == writerConnection {
            // A DatabaseQueue reads on its writer connection, under
            // `PRAGMA query_only`; GRDB reports no end of such a read, so it
            // is bridged as a read, not as the writer's write.
            guard Self.isQueryOnly(database) else {
                return try writeTransaction(bridging: database, file: file, line: line)
            }
        } else {
            guard database.configuration.readonly, let pool = writer as? DatabasePool,
                Self.resolved(pool.path) == databasePath(database).map(Self.resolved)
            else {
                throw Misuse.report(
                    "readTransaction(bridging:) received a connection of another database than \(path).",
                    fix: "bridge a connection of the pool or queue this SQLiteDB adopted.",
                    at: callSite)
            }
        }
        try requireTransaction(database, bridge: "readTransaction(bridging:)", at: callSite)
        let transaction = try engine.beginBridgedRead(connection: database, at: callSite)
        // GRDB does not report the end of a read: the SQL bridge checks that
        // the read is still open, and the next bridged read on this
        // connection ends this one for good.
        if let previous = bridges.replaceRead(transaction, on: connection), previous !== transaction {
            TransactionEngine<SQLiteBackend>.bridgedDidEnd(previous)
        }
        return transaction
    }

    private func requireTransaction(_ database: Database, bridge: String, at callSite: CallSite) throws(DBMisuseError) {
        guard database.isInsideTransaction else {
            throw Misuse.report(
                "\(bridge) received a connection that is not inside a transaction.",
                fix: "call it inside the application's own pool.write { database in … } or pool.read { database in … }; "
                    + "outside of one, use db.write or db.read.",
                at: callSite)
        }
    }

    /// Whether `database` is in one of GRDB's read-only accesses on a
    /// writable connection (a `DatabaseQueue`'s `read`).
    private static func isQueryOnly(_ database: Database) -> Bool {
        (try? Bool.fetchOne(database, sql: "PRAGMA query_only")) == true
    }

    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    private func databasePath(_ database: Database) -> String? {
        try? String.fetchOne(database, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'")
    }
}
