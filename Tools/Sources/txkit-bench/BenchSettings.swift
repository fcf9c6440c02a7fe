import GRDB
import TransactionKitSQLite

/// The database settings every file-backed variant of a benchmark shares, so
/// that `sqlite_c`, `grdb` and `sqlitedb` differ only by the layers above
/// SQLite.
///
/// - WAL journal mode (what `SQLiteDB(path:)` uses, through GRDB's
///   `DatabasePool`).
/// - `synchronous` = FULL by default, `SQLiteDB`'s default durability; NORMAL
///   with `--durability normal`.
/// - foreign keys on, busy timeout 5 s, as in `SQLiteDB.Options()`.
struct BenchSettings: Sendable {
    /// `SQLiteDB`'s durability, mirrored as the `synchronous` pragma everywhere.
    var durability: SQLiteDB.Durability = .full

    /// The value of `PRAGMA synchronous` for this durability.
    var synchronous: String {
        switch durability {
        case .full: "FULL"
        case .normal: "NORMAL"
        }
    }

    /// The pragmas the raw C baseline runs after opening its connection.
    var connectionPragmas: [String] {
        [
            "PRAGMA journal_mode = WAL",
            "PRAGMA synchronous = \(synchronous)",
            "PRAGMA foreign_keys = ON",
        ]
    }

    /// `SQLiteDB`'s options for these settings.
    var sqliteDBOptions: SQLiteDB.Options {
        var options = SQLiteDB.Options()
        options.durability = durability
        return options
    }

    /// The GRDB configuration of the plain-GRDB baseline: the same as the one
    /// `SQLiteDB` builds (foreign keys, 5 s busy timeout, 5 readers).
    var grdbConfiguration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.maximumReaderCount = 5
        configuration.label = "grdb-baseline"
        return configuration
    }

    /// Opens the plain-GRDB baseline: a WAL `DatabasePool`, with the writer's
    /// `synchronous` set as `SQLiteDB` sets it (GRDB itself picks NORMAL).
    func openGRDBPool(path: String) throws -> DatabasePool {
        let pool = try DatabasePool(path: path, configuration: grdbConfiguration)
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        return pool
    }

    /// One line for the report.
    var summary: String {
        "file databases in WAL mode, synchronous=\(synchronous), foreign_keys=ON, busy_timeout=5000 ms, "
            + "one connection per variant for sqlite_c, a GRDB DatabasePool (1 writer + up to 5 readers) for grdb, "
            + "SQLiteDB's writer and up to 5 read-only connections for sqlitedb"
    }
}
