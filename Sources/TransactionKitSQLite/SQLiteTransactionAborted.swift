/// SQLite rolled back the transaction by itself, before its block ended.
///
/// SQLite does so after some errors (a full disk, an I/O error, no memory,
/// an interrupt). When the block caught that error and went on, the
/// transaction is gone: nothing it did is committed (``SQLiteChangeTracker``
/// refuses the commits that statements running outside the transaction would
/// make), and the read or write fails with this error, turned into a
/// `DBError`.
struct SQLiteTransactionAborted: Error {}
