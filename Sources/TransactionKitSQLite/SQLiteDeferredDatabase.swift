import TransactionKit

/// What ``SQLiteDB/deferred(_:)`` returns: each transaction runs on the
/// database its lookup returns then.
struct SQLiteDeferredDatabase: DB {
    let lookup: @Sendable () throws -> SQLiteDB

    func read<T>(_ block: (DBReadTransaction) throws -> T, file: StaticString, line: UInt) throws -> T {
        try lookup().read(block, file: file, line: line)
    }

    func write<T>(_ block: (DBWriteTransaction) throws -> T, file: StaticString, line: UInt) throws -> T {
        try lookup().write(block, file: file, line: line)
    }

    func read<T: Sendable>(
        _ block: @Sendable (DBReadTransaction) throws -> T, file: StaticString, line: UInt
    ) async throws -> T {
        try await lookup().read(block, file: file, line: line)
    }

    func write<T: Sendable>(
        _ block: @Sendable (DBWriteTransaction) throws -> T, file: StaticString, line: UInt
    ) async throws -> T {
        try await lookup().write(block, file: file, line: line)
    }
}
