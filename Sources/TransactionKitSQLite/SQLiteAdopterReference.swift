import GRDB
import TransactionKit

/// The ``SQLiteDB`` that adopted an application's pool or queue, found
/// when a transaction opens: what ``SQLiteDB/adopter(of:)`` returns.
///
/// It resolves the adopter at its first transaction and keeps it; until an
/// adopter exists, every transaction throws ``/TransactionKit/DBError`` of
/// kind ``/TransactionKit/DBError/Kind-swift.enum/notAdopted``, naming the
/// pool's path, and runs nothing.
final class SQLiteAdopterReference: DB, Sendable {
    private let writer: any DatabaseWriter
    private let resolved = LockedValue<SQLiteDB?>(nil)

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// The adopter, looked up once it exists.
    private func adopter(for operation: DBError.Operation) throws(DBError) -> SQLiteDB {
        if let db = resolved.withLock({ $0 }) { return db }
        guard let db = SQLiteAdopters.shared.adopter(ofWriter: writer) else {
            throw DBError(
                kind: .notAdopted, operation: operation, path: writer.path,
                message: "no open SQLiteDB adopted this pool or queue: create one with "
                    + "`try SQLiteDB(adopting:)` at startup, after the application's migrations, and keep it")
        }
        resolved.withLock { $0 = db }
        return db
    }

    func read<T>(_ block: (DBReadTransaction) throws -> T, file: StaticString, line: UInt) throws -> T {
        try adopter(for: .read).read(block, file: file, line: line)
    }

    func write<T>(_ block: (DBWriteTransaction) throws -> T, file: StaticString, line: UInt) throws -> T {
        try adopter(for: .write).write(block, file: file, line: line)
    }

    func read<T: Sendable>(
        _ block: @Sendable (DBReadTransaction) throws -> T, file: StaticString, line: UInt
    ) async throws -> T {
        try await adopter(for: .read).read(block, file: file, line: line)
    }

    func write<T: Sendable>(
        _ block: @Sendable (DBWriteTransaction) throws -> T, file: StaticString, line: UInt
    ) async throws -> T {
        try await adopter(for: .write).write(block, file: file, line: line)
    }
}
