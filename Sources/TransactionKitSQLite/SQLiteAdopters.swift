import Foundation
import GRDB
import TransactionKit

/// The adopted databases alive in the process (`SQLiteDB(adopting:)`), so
/// that the static `SQLiteDB.readTransaction(bridging:)` and its write
/// twin find, from a GRDB connection alone, the `SQLiteDB`
/// that adopted the connection's pool or queue.
///
/// It holds them weakly: an adopted database the application let go is
/// not found. A connection matches an adopter by identity (the writer's
/// connection, on which a queue also reads) or, for a pool's read-only
/// reader connections, by the pool's file.
final class SQLiteAdopters: Sendable {
    private struct Entry {
        weak var db: SQLiteDB?
        let writerConnection: ObjectIdentifier
        /// The pool's file, symbolic links resolved; `nil` for a queue.
        let poolPath: String?
    }

    /// The process's adopters.
    static let shared = SQLiteAdopters()

    private let entries = LockedValue<[Entry]>([])

    /// Records an adopted database (and forgets those that are gone).
    func register(_ db: SQLiteDB) {
        let poolPath = (db.writer as? DatabasePool).map { Self.resolved($0.path) }
        entries.withLock { entries in
            entries.removeAll { $0.db == nil }
            entries.append(Entry(db: db, writerConnection: db.writerConnection, poolPath: poolPath))
        }
    }

    /// Forgets an adopted database (it closed).
    func unregister(_ db: SQLiteDB) {
        entries.withLock { entries in entries.removeAll { $0.db == nil || $0.db === db } }
    }

    /// The adopted databases whose pool or queue `database` belongs to:
    /// one, or none when the application adopted none (or let it go);
    /// several only when the same file was adopted more than once.
    func adopters(of database: Database) -> [SQLiteDB] {
        let connection = ObjectIdentifier(database)
        let live = entries.withLock { entries in entries.compactMap { entry in entry.db.map { (entry, $0) } } }
        if let writer = live.first(where: { $0.0.writerConnection == connection }) {
            return [writer.1]
        }
        guard database.configuration.readonly, live.contains(where: { $0.0.poolPath != nil }),
              let path = try? String.fetchOne(database, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'")
        else {
            return []
        }
        let resolved = Self.resolved(path)
        return live.filter { $0.0.poolPath == resolved }.map(\.1)
    }

    /// The open database that adopted `reader` itself (the same pool or
    /// queue object), or `nil`.
    func adopter(of reader: any DatabaseReader) -> SQLiteDB? {
        let target = ObjectIdentifier(reader)
        return entries.withLock { entries in
            entries.lazy.compactMap(\.db).first { ObjectIdentifier($0.writer) == target }
        }
    }

    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
