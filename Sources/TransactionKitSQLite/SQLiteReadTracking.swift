import GRDB
import TransactionKit

/// The tables an observed fetch reads on `SQLiteDB`: SQLite reports each
/// statement the fetch runs (a statement trace on the connection, only
/// while the fetch runs), and GRDB knows the region each one reads.
///
/// The trace replaces any other trace on the connection for that time, so
/// it is installed only on connections TransactionKit opened: a fetch on
/// the application's own connection (an adopted `DatabaseQueue`) reports
/// nothing, and its observation fetches again after every commit.
struct SQLiteReadTracking: ReadTracking {
    /// The application's connection of an adopted database, never traced.
    let applicationConnection: ObjectIdentifier?

    func trackingReads<T>(
        of transaction: DBReadTransaction, _ body: () throws -> T
    ) throws -> (value: T, region: (any ReadRegion)?) {
        guard let database = transaction.connection as? Database,
              ObjectIdentifier(database) != applicationConnection
        else {
            return (try body(), nil)
        }
        let statements = StatementLog()
        database.trace(options: .statement) { event in
            if case let .statement(statement) = event {
                statements.sql.insert(statement.sql)
            }
        }
        let value: T
        do {
            value = try body()
        } catch {
            database.trace(options: [], nil)
            throw error
        }
        database.trace(options: [], nil)
        var region = DatabaseRegion()
        for sql in statements.sql {
            do {
                region.formUnion(try database.makeStatement(sql: sql).databaseRegion)
            } catch {
                // A statement SQLite ran but GRDB cannot prepare alone (a
                // trigger's sub-statement): assume it may read anything.
                region = .fullDatabase
                break
            }
        }
        return (value, SQLiteReadRegion(region: region))
    }

    /// The statements one fetch ran, filled by the trace on the fetch's
    /// connection, on the thread that runs it.
    private final class StatementLog {
        var sql: Set<String> = []
    }
}

/// The region of the statements an observed fetch ran.
struct SQLiteReadRegion: ReadRegion {
    let region: DatabaseRegion

    func isModified(byTable table: String) -> Bool {
        region.isModified(byEventsOfKind: .insert(tableName: table))
            || region.isModified(byEventsOfKind: .delete(tableName: table))
    }

    var isFullDatabase: Bool { region.isFullDatabase }
    var isEmpty: Bool { region.isEmpty }
}
