#if Postgres
import Foundation
import Logging
import NIOCore
import PostgresNIO
import TransactionKit

/// ``/TransactionKit/KeyValueStore`` on ``PostgresDB``: a table of its own
/// (``PostgresDB/Configuration/keyValueTable``), read and written with the
/// transaction's connection, so its values commit and roll back with the
/// rest of the transaction.
///
/// The store's methods are synchronous (one API for every database), and
/// PostgreSQL answers over the network: each call sends one statement on
/// the transaction's connection and blocks its thread until the server
/// answers (one round trip). The thread waits for postgres-nio's event
/// loop, which never waits for the caller's thread or for Swift's
/// cooperative pool, so the wait cannot deadlock; it is never allowed on an
/// event loop thread (postgres-nio stops the process there).
///
/// **Semantics** (those of `SQLiteDB` and `MockDB`, at the default
/// serializable isolation): a value set in a write is visible to that
/// transaction at once, to others once it commits; a read transaction
/// sees one snapshot; a read-modify-write loses no update (PostgreSQL rolls
/// back one of two that conflict, and ``PostgresDB`` runs it again). Keys
/// and collections are `TEXT COLLATE "C"`: compared and ordered by their
/// UTF-8 bytes. Values keep their type: integers as `BIGINT`, reals as
/// `DOUBLE PRECISION`, text and blobs as `BYTEA` (text may hold U+0000,
/// which a PostgreSQL `TEXT` refuses).
final class PostgresKeyValueStorage: KeyValueStorage {
    /// The table's name, quoted for SQL.
    private let table: String
    private let path: String
    private let logger: Logger

    private enum Kind: Int16 {
        case integer = 1, real = 2, text = 3, blob = 4
    }

    init(table: String, path: String, logger: Logger) {
        self.table = Self.quoted(table)
        self.path = path
        self.logger = logger
    }

    /// `CREATE TABLE IF NOT EXISTS`, for ``PostgresDB/open(_:logger:)``.
    static func createTableSQL(_ table: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(quoted(table)) (
            collection TEXT COLLATE "C" NOT NULL,
            key TEXT COLLATE "C" NOT NULL,
            kind SMALLINT NOT NULL,
            integer_value BIGINT,
            real_value DOUBLE PRECISION,
            bytes_value BYTEA,
            PRIMARY KEY (collection, key)
        )
        """
    }

    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: - KeyValueStorage

    func value(forKey key: String, in collection: String, _ transaction: DBReadTransaction) throws -> KeyValueStore.Value? {
        var binds = PostgresBindings()
        binds.append(collection)
        binds.append(key)
        let result = try run(
            "SELECT kind, integer_value, real_value, bytes_value FROM \(table) WHERE collection = $1 AND key = $2",
            binds, transaction, .read)
        guard let row = result.rows.first else { return nil }
        do {
            let (kind, integer, real, bytes) = try row.decode((Int16, Int64?, Double?, ByteBuffer?).self)
            switch Kind(rawValue: kind) {
            case .integer?: if let integer { return .integer(integer) }
            case .real?: if let real { return .real(real) }
            case .text?: if let bytes { return .text(String(decoding: bytes.readableBytesView, as: UTF8.self)) }
            case .blob?: if let bytes { return .blob(Data(bytes.readableBytesView)) }
            case nil: break
            }
        } catch {
            throw storageError(error, .read)
        }
        throw DBError(
            kind: .corrupt, operation: .read, path: path,
            message: "the key-value table \(table) holds a row that is no value (collection \(collection), key \(key))")
    }

    func setValue(
        _ value: KeyValueStore.Value, forKey key: String, in collection: String, _ transaction: DBWriteTransaction
    ) throws {
        var binds = PostgresBindings()
        binds.append(collection)
        binds.append(key)
        switch value {
        case let .integer(integer):
            binds.append(Kind.integer.rawValue)
            binds.append(integer)
            binds.appendNull()
            binds.appendNull()
        case let .real(real):
            binds.append(Kind.real.rawValue)
            binds.appendNull()
            binds.append(real)
            binds.appendNull()
        case let .text(text):
            binds.append(Kind.text.rawValue)
            binds.appendNull()
            binds.appendNull()
            binds.append(ByteBuffer(string: text))
        case let .blob(data):
            binds.append(Kind.blob.rawValue)
            binds.appendNull()
            binds.appendNull()
            binds.append(ByteBuffer(bytes: data))
        }
        _ = try run(
            "INSERT INTO \(table) (collection, key, kind, integer_value, real_value, bytes_value) "
                + "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (collection, key) DO UPDATE SET "
                + "kind = EXCLUDED.kind, integer_value = EXCLUDED.integer_value, "
                + "real_value = EXCLUDED.real_value, bytes_value = EXCLUDED.bytes_value",
            binds, transaction, .write)
    }

    func removeValue(forKey key: String, in collection: String, _ transaction: DBWriteTransaction) throws -> Bool {
        var binds = PostgresBindings()
        binds.append(collection)
        binds.append(key)
        let result = try run("DELETE FROM \(table) WHERE collection = $1 AND key = $2", binds, transaction, .write)
        return (result.metadata.rows ?? 0) > 0
    }

    func removeAll(in collection: String, _ transaction: DBWriteTransaction) throws -> Int {
        var binds = PostgresBindings()
        binds.append(collection)
        let result = try run("DELETE FROM \(table) WHERE collection = $1", binds, transaction, .write)
        return result.metadata.rows ?? 0
    }

    func keys(in collection: String, _ transaction: DBReadTransaction) throws -> [String] {
        var binds = PostgresBindings()
        binds.append(collection)
        let result = try run("SELECT key FROM \(table) WHERE collection = $1 ORDER BY key", binds, transaction, .read)
        do {
            return try result.rows.map { try $0.decode(String.self) }
        } catch {
            throw storageError(error, .read)
        }
    }

    func count(in collection: String, _ transaction: DBReadTransaction) throws -> Int {
        var binds = PostgresBindings()
        binds.append(collection)
        let result = try run("SELECT count(*) FROM \(table) WHERE collection = $1", binds, transaction, .read)
        do {
            return try result.rows.first.map { Int(try $0.decode(Int64.self)) } ?? 0
        } catch {
            throw storageError(error, .read)
        }
    }

    // MARK: - Private

    /// Sends one statement on the transaction's connection and waits for
    /// the server's answer (see the type's documentation).
    private func run(
        _ sql: String, _ binds: PostgresBindings, _ transaction: DBReadTransaction, _ operation: DBError.Operation
    ) throws -> PostgresQueryResult {
        // `KeyValueStore` checked that the transaction is active in this
        // task and belongs to this database.
        guard let handle = transaction.connection as? PostgresTransactionConnection else {
            preconditionFailure("TransactionKit internal error: a PostgresDB transaction without its connection")
        }
        do {
            return try handle.connection.resultUnlessClosed(
                PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger
            ).wait()
        } catch {
            throw storageError(error, operation)
        }
    }

    private func storageError(_ error: any Error, _ operation: DBError.Operation) -> any Error {
        PostgresErrors.map(error, during: operation, path: path)
    }
}
#endif
