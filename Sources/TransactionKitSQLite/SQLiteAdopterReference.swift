import GRDB
import TransactionKit

/// The ``SQLiteDB`` that adopted an application's pool or queue, found
/// when a transaction opens: what ``SQLiteDB/adopter(of:)`` and
/// ``SQLiteDB/adopter(ofReader:)`` return.
///
/// It resolves the adopter at its first transaction and keeps it; until an
/// adopter exists, every transaction throws ``/TransactionKit/DBError`` of
/// kind ``/TransactionKit/DBError/Kind-swift.enum/notAdopted``, naming the
/// pool's path, and runs nothing. Given a reader, it only reads: a write
/// throws ``/TransactionKit/DBError/Kind-swift.enum/readOnly`` and runs
/// nothing.
final class SQLiteAdopterReference: DB, Sendable {
    private let handle: any DatabaseReader
    private let writes: Bool
    private let resolved = LockedValue<SQLiteDB?>(nil)

    init(writer: any DatabaseWriter) {
        handle = writer
        writes = true
    }

    init(reader: any DatabaseReader) {
        handle = reader
        writes = false
    }

    /// The adopter, looked up once it exists.
    private func adopter(for operation: DBError.Operation) throws(DBError) -> SQLiteDB {
        if operation == .write, !writes {
            var error = DBError(
                kind: .readOnly, operation: .write, path: handle.path,
                message: "this database was given the application's reader (`SQLiteDB.adopter(ofReader:)`), which does not write")
            error.specificAdvice = "Give the code that writes the pool or queue itself (`SQLiteDB.adopter(of:)`)."
            throw error
        }
        if let db = resolved.withLock({ $0 }) { return db }
        guard let db = SQLiteAdopters.shared.adopter(of: handle) else {
            let isPoolOrQueue = handle is DatabasePool || handle is DatabaseQueue
            throw DBError(
                kind: .notAdopted, operation: operation, path: handle.path,
                message: isPoolOrQueue
                    ? "no open SQLiteDB adopted this pool or queue: create one with "
                        + "`try SQLiteDB(adopting:)` at startup, after the application's migrations, and keep it"
                    : "this reader is a \(type(of: handle)), not a pool or queue an SQLiteDB adopts: "
                        + "give the adopted DatabasePool or DatabaseQueue itself")
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
