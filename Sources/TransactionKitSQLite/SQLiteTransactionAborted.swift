/// SQLite ended the transaction before its block returned.
///
/// SQLite rolls a transaction back by itself after some errors (a full
/// disk, an I/O error, no memory, an interrupt); a block may also run
/// `ROLLBACK` or `COMMIT` itself. The backend finds it once, when the block
/// returned, and fails the read or write with this error, turned into a
/// `DBError`: no completion runs and the block's result is discarded. Statements
/// the block ran after the transaction ended ran outside it, in SQLite's
/// autocommit mode, and stay committed (see `SQLiteBackend`).
struct SQLiteTransactionAborted: Error {}
