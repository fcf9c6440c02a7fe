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
    /// let db = try SQLiteDB(path: path, options: options)
    /// ```
    public struct Options: Sendable {
        /// How long a transaction waits for a lock held by another connection
        /// or process before failing with ``DBError/Kind/busy``. Default: 5 s.
        public var busyTimeout: Duration = .seconds(5)

        /// How durable commits are. Default: ``Durability/full``.
        public var durability: Durability = .full

        /// The maximum number of concurrent reader connections of a file
        /// database. Default: 5.
        public var maximumReaderCount: Int = 5

        /// Creates default options.
        public init() {}

        func grdbConfiguration(label: String) -> Configuration {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            let components = busyTimeout.components
            configuration.busyMode = .timeout(
                TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18)
            configuration.maximumReaderCount = maximumReaderCount
            configuration.label = label
            return configuration
        }
    }
}
