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
    /// Everything ``init(path:migrator:options:)`` does before it wraps the
    /// pool: checks the path, creates or adopts the file, refuses a foreign
    /// database, opens the pool, migrates, and checks the integrity when
    /// asked; returns the pool and the migrations this open applied.
    ///
    /// When any step fails, what the open did to the file system is undone
    /// (``SQLiteFileChanges/undo()``): a database file it created and left
    /// empty is removed, and the permissions it changed are restored.
    static func openDatabase(
        path: String, migrator: DatabaseMigrator?, options: Options
    ) throws(DBError) -> (pool: DatabasePool, appliedMigrations: [String]) {
        try checkPath(path)
        var changes = SQLiteFileChanges()
        if options.readOnly {
            try checkFileExists(at: path)
        } else {
            changes = try prepareFile(at: path)
        }
        do {
            return try openAndMigrate(path: path, migrator: migrator, options: options)
        } catch {
            // The pool, if any, was released when openAndMigrate returned.
            changes.undo()
            throw error
        }
    }

    private static func openAndMigrate(
        path: String, migrator: DatabaseMigrator?, options: Options
    ) throws(DBError) -> (pool: DatabasePool, appliedMigrations: [String]) {
        let refusesForeign = migrator != nil && !options.adoptsForeignDatabase
        if let migrator, refusesForeign {
            try refuseForeignDatabaseBeforeOpening(path: path, migrator: migrator, options: options)
        }
        if !options.readOnly {
            alignCompanionPermissions(with: path)
        }
        let pool = try openPool(path: path, options: options)
        var applied: [String] = []
        if let migrator {
            if options.readOnly {
                try checkNoPendingMigration(writer: pool, path: path, migrator: migrator, refusingForeignDatabase: refusesForeign)
            } else {
                applied = try migrate(writer: pool, path: path, with: migrator, refusingForeignDatabase: refusesForeign)
            }
        }
        if options.integrityCheckOnOpen {
            try quickCheck(writer: pool, path: path, operation: .open)
        }
        return (pool, applied)
    }

    /// Opens a WAL `DatabasePool` on the file at `path`, which exists
    /// unless the open is read-only.
    ///
    /// Another process may be opening the same new file at the same moment.
    /// Switching a file to WAL (`PRAGMA journal_mode = WAL`, which GRDB's
    /// `DatabasePool` runs on its writer) reads the file header, then
    /// upgrades to a write lock to rewrite it; SQLite never calls the busy
    /// handler for such an upgrade (it could deadlock), so while another
    /// connection holds a lock on the file the pragma fails with
    /// `SQLITE_BUSY` at once, whatever the busy timeout. The whole open is
    /// therefore retried while it fails with `SQLITE_BUSY`, until
    /// ``Options/busyTimeout`` has passed since the first attempt: a busy
    /// error is thrown only after the timeout (at most about twice the
    /// timeout, when the last attempt itself waits in SQLite's busy handler).
    static func openPool(path: String, options: Options) throws(DBError) -> DatabasePool {
        var configuration = options.grdbConfiguration(label: path)
        configuration.readonly = options.readOnly
        do {
            return try retryingWhileBusy(forNanoseconds: options.busyTimeoutNanoseconds) {
                let pool = try DatabasePool(path: path, configuration: configuration)
                if !options.readOnly {
                    // GRDB sets synchronous=NORMAL with WAL; apply the chosen
                    // durability on the writer connection, the only one that commits.
                    try pool.writeWithoutTransaction { db in
                        try db.execute(sql: "PRAGMA synchronous = \(options.durability.pragmaValue)")
                    }
                }
                return pool
            }
        } catch {
            throw SQLiteErrors.openError(from: error, path: path)
        }
    }

    /// Runs `attempt` again while it throws `SQLITE_BUSY` (primary code)
    /// and `timeout` has not passed since the first call, waiting between
    /// attempts as SQLite's default busy handler does (1 ms growing to
    /// 100 ms; the last attempt runs at the deadline); rethrows the last
    /// error.
    ///
    /// For the steps that SQLite does not retry itself. An attempt that
    /// already waited in SQLite's busy handler for the whole timeout is not
    /// retried: the deadline has passed by then.
    private static func retryingWhileBusy<T>(forNanoseconds timeout: Int64, _ attempt: () throws -> T) throws -> T {
        // Dispatch's monotonic clock, not `ContinuousClock` (iOS 16).
        let start = DispatchTime.now().uptimeNanoseconds
        let delaysInMilliseconds: [Int64] = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]
        var retries = 0
        while true {
            do {
                return try attempt()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                let elapsed = Int64(clamping: DispatchTime.now().uptimeNanoseconds &- start)
                let remaining = timeout - min(elapsed, timeout)
                guard remaining > 0 else {
                    throw error
                }
                let delay = min(delaysInMilliseconds[min(retries, delaysInMilliseconds.count - 1)] * 1_000_000, remaining)
                retries += 1
                // Waiting for another process to release its lock: there is
                // nothing to be notified by, exactly as in SQLite's own busy
                // handler.
                Thread.sleep(forTimeInterval: Double(delay) / 1e9)
            }
        }
    }

    /// A read-only open never creates the file.
    private static func checkFileExists(at path: String) throws(DBError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DBError(
                kind: .cannotOpen, operation: .open, path: path,
                message: "no database file at this path; a read-only open never creates one")
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
    static func checkNoPendingMigration(
        writer: any DatabaseWriter, path: String, migrator: DatabaseMigrator, refusingForeignDatabase: Bool
    ) throws(DBError) {
        let applied: Set<String>
        do {
            applied = try writer.read { db in
                if refusingForeignDatabase, try isForeign(db, for: migrator) {
                    throw foreignDatabaseError(path: path, operation: .open)
                }
                return try migrator.appliedIdentifiers(db)
            }
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
    ///
    /// Several processes may migrate the same file at the same moment (an
    /// app and its extension, two server instances opening a new file).
    /// GRDB's `DatabaseMigrator` decides which migrations to run by reading
    /// `grdb_migrations` before it takes the write lock, then runs each one
    /// in its own `BEGIN IMMEDIATE` transaction together with the insertion
    /// of its identifier into `grdb_migrations`, whose primary key makes a
    /// second application of the same migration fail and roll back as a
    /// whole. So a process that decided while another one was migrating
    /// fails on a migration the other one has applied meanwhile ("table
    /// already exists"), without changing the file.
    ///
    /// The decision is therefore checked under the write lock: after a
    /// failure, the applied migrations are read again in an immediate
    /// transaction (which waits for another process's migration transaction
    /// within the busy timeout), together with `PRAGMA data_version`, which
    /// changes only when another connection committed. When another
    /// connection changed the applied migrations, the migrator runs again
    /// with a fresh decision. A migration is reported as failed only when it
    /// fails on a database whose migrations nobody else changed meanwhile,
    /// and it is then run only once.
    ///
    /// Returns the identifiers of the migrations this call applied, in the
    /// order they were applied (not those another process applied
    /// meanwhile): the inserts into `grdb_migrations` committed by this
    /// writer connection.
    ///
    /// With `refusingForeignDatabase`, a database that ``isForeign(_:for:)``
    /// is refused with ``/TransactionKit/DBError/Kind/foreignDatabase``,
    /// decided under the write lock before any migration runs.
    static func migrate(
        writer: any DatabaseWriter, path: String, with migrator: DatabaseMigrator, refusingForeignDatabase: Bool
    ) throws(DBError) -> [String] {
        // Each retry follows another connection's change of the applied
        // migrations, which can happen only a few times; the bound guards
        // against an endless loop should other processes keep merging and
        // un-merging identifiers.
        let maximumAttempts = migrator.migrations.count + 2
        var state = try migrationStateUnderWriteLock(
            writer: writer, path: path, migrator, refusingForeignDatabase: refusingForeignDatabase)
        let recorder = SQLiteMigrationRecorder()
        writer.add(transactionObserver: recorder, extent: .observerLifetime)
        defer { writer.remove(transactionObserver: recorder) }
        var attempt = 1
        while true {
            if state.applied == Set(migrator.migrations) {
                // Decided under the write lock: nothing to do. This is every
                // open after the first one. (Other identifiers, merged or
                // from a newer version, are left to GRDB's migrator.)
                return try identifiers(ofRows: recorder.committedRowIDs, writer: writer, path: path)
            }
            do {
                try migrator.migrate(writer)
                return try identifiers(ofRows: recorder.committedRowIDs, writer: writer, path: path)
            } catch {
                if let storageError = SQLiteErrors.storageError(from: error, path: path, operation: .migrate) {
                    throw storageError
                }
                let before = state
                state = try migrationStateUnderWriteLock(writer: writer, path: path, migrator, refusingForeignDatabase: false)
                let anotherConnectionMigrated = state.dataVersion != before.dataVersion && state.applied != before.applied
                if anotherConnectionMigrated, attempt < maximumAttempts {
                    attempt += 1
                    continue
                }
                let failed = migrator.migrations.first { !state.applied.contains($0) } ?? "?"
                throw DBError(
                    kind: .migrationFailed, operation: .migrate, path: path,
                    resultCode: (error as? DatabaseError)?.extendedResultCode.rawValue,
                    message: "migration \"\(failed)\" failed: \(error); "
                        + "the database stays at \(state.applied.count) applied migration(s)",
                    underlyingError: error)
            }
        }
    }

    /// Migrates this database (an in-memory one); returns the migrations
    /// applied.
    @discardableResult
    func migrate(with migrator: DatabaseMigrator) throws(DBError) -> [String] {
        try Self.migrate(writer: writer, path: path, with: migrator, refusingForeignDatabase: false)
    }

    /// The identifiers in `grdb_migrations` of the rows `rowIDs`, in that order.
    private static func identifiers(ofRows rowIDs: [Int64], writer: any DatabaseWriter, path: String) throws(DBError) -> [String] {
        guard !rowIDs.isEmpty else {
            return []
        }
        do {
            // On the writer connection: opening a reader connection here
            // would leave the -wal file behind when the pool closes (a
            // read-only connection, closed last, cannot remove it).
            let byRowID = try writer.writeWithoutTransaction { db in
                try Dictionary(
                    uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT rowid, identifier FROM grdb_migrations").map {
                        (row: Row) -> (Int64, String) in (row[0], row[1])
                    })
            }
            return rowIDs.compactMap { byRowID[$0] }
        } catch {
            throw SQLiteErrors.storageError(from: error, path: path, operation: .migrate)
                ?? SQLiteErrors.other(error, path: path, operation: .migrate)
        }
    }

    /// The identifiers in `grdb_migrations`, and `PRAGMA data_version`,
    /// read on the writer connection in an immediate transaction: no other
    /// connection is in the middle of a migration.
    private static func migrationStateUnderWriteLock(
        writer: any DatabaseWriter, path: String, _ migrator: DatabaseMigrator, refusingForeignDatabase: Bool
    ) throws(DBError) -> (applied: Set<String>, dataVersion: Int) {
        do {
            return try writer.write { db in
                if refusingForeignDatabase, try isForeign(db, for: migrator) {
                    throw foreignDatabaseError(path: path, operation: .open)
                }
                return (
                    applied: try migrator.appliedIdentifiers(db),
                    dataVersion: try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                )
            }
        } catch {
            throw SQLiteErrors.storageError(from: error, path: path, operation: .migrate)
                ?? SQLiteErrors.other(error, path: path, operation: .migrate)
        }
    }
}
