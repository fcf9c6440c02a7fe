import GRDB
import TransactionKit

extension SQLiteDB {
    /// Closes the database: checkpoints a file database's write-ahead log
    /// into the main file, then closes every connection and releases the
    /// file.
    ///
    /// ```swift
    /// try db.close()
    /// ```
    ///
    /// Closing is idempotent: a second call does nothing. A transaction
    /// already running finishes first; every `read` or `write` begun after
    /// `close()` throws ``/TransactionKit/DBError`` of kind ``/TransactionKit/DBError/Kind/closed``.
    ///
    /// A file database runs a passive checkpoint first, which copies the
    /// committed transactions from the `-wal` file into the database file
    /// without waiting for other processes. If it fails (a full disk, an I/O
    /// error), the connections are closed all the same and the failure is
    /// thrown: no committed transaction is lost, since it is still in the
    /// `-wal` file, which SQLite copies into the database the next time the
    /// file is opened, but the file is not self-contained until then (do not
    /// copy it alone). A checkpoint that another process's connection holds
    /// back (`SQLITE_BUSY`) is not an error: that process finishes it.
    ///
    /// When no other connection has the file open, closing removes the
    /// `-wal` and `-shm` files: the database file alone holds everything.
    ///
    /// Closing is optional: the connections close when the `SQLiteDB` is
    /// deallocated, but without reporting a failed checkpoint.
    ///
    /// An adopted database (``init(adopting:)-(DatabasePool)``) closes only
    /// what is TransactionKit's: its read-only connections, its prepared
    /// statements and its change tracker on the writer. The application's pool or queue stays
    /// open, with no checkpoint, and legacy code goes on using it.
    ///
    /// **Thread:** the calling thread, which waits for running transactions.
    ///
    /// - Throws: ``/TransactionKit/DBError`` with operation ``/TransactionKit/DBError/Operation/close``: the
    ///   checkpoint's error (`.diskFull`, `.ioError`, …), or GRDB's error
    ///   when a connection cannot close.
    public func close() throws(DBError) {
        guard engine.backend.closing.markClosed() else {
            return
        }
        var failure: DBError?
        // The readers first: running reads finish, and the writer is the
        // last connection to close.
        do {
            try engine.backend.readers?.close()
        } catch {
            failure = Self.closeError(error, path: path, during: "closing the read-only connections")
        }
        if isAdopted {
            SQLiteAdopters.shared.unregister(self)
            // The pool or queue is the application's: it stays open, and
            // TransactionKit's statements on its writer go.
            writer.unsafeReentrantWrite { db in
                engine.backend.writerStatements.finalize()
                engine.backend.changeTracking.close(db)
            }
            if let failure {
                throw failure
            }
            return
        }
        if !isInMemory, !isReadOnly {
            do {
                try writer.writeWithoutTransaction { db in
                    _ = try db.checkpoint(.passive)
                }
            } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) {
                // Another process's connection holds the checkpoint back; the
                // log stays complete and that connection checkpoints it.
            } catch {
                failure = failure ?? Self.closeError(error, path: path, during: "the final checkpoint")
            }
        }
        // GRDB closes the writer connection before the readers; the last
        // connection to close, a read-only one, could not remove the -wal
        // file, which then outlived every connection. Closing the idle
        // readers first leaves the writer last.
        (writer as? DatabasePool)?.releaseMemory()
        writer.writeWithoutTransaction { db in
            engine.backend.writerStatements.finalize()
            engine.backend.changeTracking.close(db)
        }
        do {
            try writer.close()
        } catch {
            failure = failure ?? Self.closeError(error, path: path, during: "closing the connections")
        }
        if let failure {
            throw failure
        }
    }

    private static func closeError(_ error: any Error, path: String, during step: String) -> DBError {
        var closeError = SQLiteErrors.storageError(from: error, path: path, operation: .close)
            ?? SQLiteErrors.other(error, path: path, operation: .close)
        closeError.message = "\(step) failed: \(closeError.message); every committed transaction is still in the "
            + "-wal file, and SQLite copies it into the database the next time the file is opened"
        return closeError
    }
}
