import Foundation
import GRDB

extension SQLiteDB {
    /// How durable a commit is once `write` returned.
    public enum Durability: Sendable, Hashable {
        /// `PRAGMA synchronous = FULL`: a committed transaction survives a
        /// crash of the process, of the operating system, and a power loss.
        /// The default.
        case full
        /// `PRAGMA synchronous = NORMAL` (WAL mode): a committed transaction
        /// survives a crash or kill of the process, but the most recent
        /// transactions may be rolled back by an operating-system crash or a
        /// power loss. The database never becomes corrupt. Faster commits.
        case normal

        var pragmaValue: String {
            switch self {
            case .full: "FULL"
            case .normal: "NORMAL"
            }
        }
    }

    /// How an `SQLiteDB` is opened.
    ///
    /// ```swift
    /// var options = SQLiteDB.Options()
    /// options.busyTimeout = .seconds(10)
    /// options.prepareDatabase { db in
    ///     db.add(function: DatabaseFunction("slugify", argumentCount: 1, pure: true) { values in
    ///         String.fromDatabaseValue(values[0])?.lowercased()
    ///     })
    /// }
    /// let db = try SQLiteDB(path: path, options: options)
    /// ```
    public struct Options: Sendable {
        /// How long a transaction waits for a lock held by another connection
        /// or process before failing with ``/TransactionKit/DBError/Kind/busy``. Default: 5 s.
        ///
        /// Opening a file waits as long for another process that holds a
        /// lock on it, also while a new file is switched to WAL mode (a
        /// step SQLite itself does not retry, which ``SQLiteDB`` retries).
        ///
        /// A `DispatchTimeInterval` (`.seconds(5)`, `.milliseconds(200)`),
        /// not a `Duration`, which needs iOS 16; `.never` waits without limit.
        public var busyTimeout: DispatchTimeInterval = .seconds(5)

        /// How durable commits are. Default: ``Durability/full``.
        public var durability: Durability = .full

        /// The maximum number of read-only connections of a file database,
        /// opened on first need: at most this many reads run at once, and a
        /// read that finds them all busy waits for one (a synchronous read
        /// blocks its thread, an async read suspends). Default: 5.
        public var maximumReaderCount: Int = 5

        /// Whether the database is opened read-only. Default: `false`.
        ///
        /// A read-only file database is opened with `SQLITE_OPEN_READONLY`:
        /// the file must exist (it is never created), its migrations must all
        /// be applied already (a pending one fails the open with
        /// ``/TransactionKit/DBError/Kind/readOnly``, and nothing is written), and its
        /// permissions may be read-only. A read-only in-memory database is
        /// migrated when it is created, then refuses writes
        /// (`PRAGMA query_only`).
        ///
        /// Reads work as usual. Every `write` throws
        /// ``/TransactionKit/DBError`` of kind ``/TransactionKit/DBError/Kind/readOnly`` before its block
        /// runs, the same error `MockDB(isReadOnly: true)` throws.
        public var readOnly: Bool = false

        /// Whether opening a foreign database adopts it. Default: `false`.
        ///
        /// A foreign database is an SQLite file that holds tables but none
        /// of the migrations of the migrator given to open it: another
        /// app's database, or a file picked by mistake. By default
        /// ``SQLiteDB/init(path:migrator:options:)`` refuses it with
        /// ``/TransactionKit/DBError/Kind/foreignDatabase`` and changes
        /// nothing in it. With `true`, it is opened like a database of
        /// yours: switched to WAL mode, and every migration runs on it (a
        /// migration that creates a table the file already has then fails
        /// with ``/TransactionKit/DBError/Kind/migrationFailed``, after the
        /// file was switched to WAL mode and given a `grdb_migrations` table).
        ///
        /// Without a migrator there is nothing to compare with, and any
        /// SQLite file is opened.
        public var adoptsForeignDatabase: Bool = false

        /// Whether opening the database runs SQLite's `PRAGMA quick_check`
        /// and fails when it finds a problem. Default: `false`.
        ///
        /// `quick_check` reads every page of the file and checks the
        /// structure of every table and index (but not that each index
        /// matches its table, which ``SQLiteDB/checkIntegrity()`` also
        /// checks). A damaged file then fails the open with
        /// ``/TransactionKit/DBError/Kind/integrityCheckFailed``, listing the
        /// problems, instead of a later read failing with
        /// ``/TransactionKit/DBError/Kind/corrupt``.
        ///
        /// **Cost:** proportional to the file's size, since every page is
        /// read, plus the time to read the file from the device when it is
        /// not in the page cache (figures in Benchmarks/README.md). It runs
        /// after the migrations, on the writer connection.
        public var integrityCheckOnOpen: Bool = false

        /// The blocks that prepare each new connection, in order.
        private var preparations: [@Sendable (Database) throws -> Void] = []

        /// Creates default options.
        public init() {}

        /// Adds a block that runs on every new SQLite connection, before any
        /// transaction uses it: the writer, each reader of a file database,
        /// an in-memory database, and each copy made by `SQLiteTemplate`.
        /// This is GRDB's `Configuration.prepareDatabase`: register custom
        /// SQL functions and collations, set an encryption key, install a
        /// trace.
        ///
        /// ```swift
        /// var options = SQLiteDB.Options()
        /// options.prepareDatabase { db in
        ///     db.trace { print($0) }
        /// }
        /// ```
        ///
        /// Blocks run in the order they were added. Reader connections open
        /// lazily, so a block may first run for a reader at the first `read`
        /// that needs a new connection.
        ///
        /// **Thread:** the connection's own GRDB queue.
        ///
        /// - Warning: The block runs outside any TransactionKit transaction:
        ///   keep it to connection setup (functions, collations, keys,
        ///   tracing, pragmas that do not write).
        /// - Parameter body: Prepares one connection. An error it throws fails
        ///   the open (``/TransactionKit/DBError`` with the error as
        ///   ``/TransactionKit/DBError/underlyingError``), or the read that opened a new
        ///   reader connection.
        public mutating func prepareDatabase(_ body: @escaping @Sendable (Database) throws -> Void) {
            preparations.append(body)
        }

        /// ``busyTimeout`` in nanoseconds, at least 0 (`.never`: `Int64.max`,
        /// about 292 years).
        package var busyTimeoutNanoseconds: Int64 {
            let value: Int, scale: Int64
            switch busyTimeout {
            case let .seconds(n): (value, scale) = (n, 1_000_000_000)
            case let .milliseconds(n): (value, scale) = (n, 1_000_000)
            case let .microseconds(n): (value, scale) = (n, 1_000)
            case let .nanoseconds(n): (value, scale) = (n, 1)
            case .never: return .max
            @unknown default: return .max
            }
            let (product, overflow) = Int64(value).multipliedReportingOverflow(by: scale)
            if overflow { return value < 0 ? 0 : .max }
            return max(0, product)
        }

        package func grdbConfiguration(label: String) -> Configuration {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(TimeInterval(busyTimeoutNanoseconds) / 1e9)
            configuration.maximumReaderCount = maximumReaderCount
            configuration.label = label
            // TransactionKit's transactions on these connections end their
            // transaction or stop the process (SQLiteTransactionStatements'
            // `preconditionNoTransactionLeft()`); GRDB's own check at the end
            // of each access costs a thread check more per write. GRDB's
            // migrations and TransactionKit's other accesses use GRDB's
            // transactions, which always end theirs.
            configuration.allowsUnsafeTransactions = true
            let preparations = preparations
            if !preparations.isEmpty {
                configuration.prepareDatabase { db in
                    for prepare in preparations {
                        try prepare(db)
                    }
                }
            }
            return configuration
        }
    }
}
