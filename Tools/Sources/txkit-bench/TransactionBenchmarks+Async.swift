import GRDB
import TransactionKit
import TransactionKitSQLite

/// What `SQLiteDB`'s `AsyncDB` side costs against its `DB` side, on the
/// same database file: `async_empty_write_tx` and `async_point_read_tx`.
///
/// - `sync`: `DB`'s synchronous `write`/`read` with a synchronous block,
///   called from the harness's thread (the baseline);
/// - `await_sync_block`: `DB`'s async `write`/`read` with a synchronous
///   block, awaited in a task;
/// - `async_block`: `AsyncDB`'s `write`/`read` with an async block, awaited
///   in a task: the block runs on the connection's thread
///   (`SQLiteConnectionExecutor`), the block's finder awaits nothing.
///
/// The async variants run each sample's iterations in one task
/// (``BenchVariant/async(name:operationsPerIteration:prepare:body:)``), so
/// the hand-over from the harness is paid once per sample.
extension TransactionBenchmarks {
    var asyncEmptyWrite: BenchEntry {
        let db = sqliteDB as! SQLiteDB
        return BenchEntry(
            name: "async_empty_write_tx",
            note: "one write transaction whose block does nothing, on SQLiteDB: DB.write (sync), DB's async write with a sync block, AsyncDB.write with an async block",
            variants: [
                BenchVariant(name: "sync") { iterations in
                    for _ in 0..<iterations { try db.write { _ in } }
                },
                .async(name: "await_sync_block") { iterations in
                    for _ in 0..<iterations { try await db.write { (_: DBWriteTransaction) in } }
                },
                .async(name: "async_block") { iterations in
                    for _ in 0..<iterations { try await db.write { (_: DBWriteTransaction) async in } }
                },
            ],
            ratios: [("async_block", "sync"), ("await_sync_block", "sync"), ("async_block", "await_sync_block")])
    }

    var asyncPointRead: BenchEntry {
        let db = sqliteDB as! SQLiteDB
        let count = Self.pointRowCount
        @Sendable func fetch(_ id: Int64, _ tx: DBReadTransaction) throws -> Int64? {
            try Int64.fetchOne(try SQLiteDB.shimOnlyBridge(tx).cachedStatement(sql: Self.pointReadSQL), arguments: [id])
        }
        return BenchEntry(
            name: "async_point_read_tx",
            note: "one read transaction per SELECT value FROM item WHERE id = ? on SQLiteDB (as point_read_tx): DB.read (sync), DB's async read with a sync block, AsyncDB.read with an async block",
            variants: [
                BenchVariant(name: "sync") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        try Self.check(try db.read { tx in try fetch(id, tx) }, id)
                    }
                },
                .async(name: "await_sync_block") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        try Self.check(try await db.read { (tx: DBReadTransaction) in try fetch(id, tx) }, id)
                    }
                },
                .async(name: "async_block") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        try Self.check(try await db.read { (tx: DBReadTransaction) async throws in try fetch(id, tx) }, id)
                    }
                },
            ],
            ratios: [("async_block", "sync"), ("await_sync_block", "sync"), ("async_block", "await_sync_block")])
    }
}
