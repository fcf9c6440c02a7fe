#if Postgres
import Foundation
import PostgresNIO
import TransactionKit

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension PostgresDB {
    /// Where a ``PostgresDB`` connects, as whom, and how it runs
    /// transactions.
    ///
    /// ```swift
    /// var configuration = try PostgresDB.Configuration(url: "postgresql://app:secret@db.internal:5432/app")
    /// configuration.isolation = .repeatableRead
    /// configuration.conflictRetries = 5
    /// ```
    public struct Configuration: Sendable {
        /// Where the server listens.
        public enum Endpoint: Sendable, Hashable {
            /// A host name or address, and a TCP port.
            case tcp(host: String, port: Int)
            /// The path of the server's Unix-domain socket file
            /// (`/run/postgresql/.s.PGSQL.5432`).
            case unixSocket(path: String)
        }

        /// Where the server listens.
        public var endpoint: Endpoint
        /// The role to connect as.
        public var username: String
        /// The role's password, or `nil` for trust or peer authentication.
        /// Never printed: errors and ``PostgresDB/path`` leave it out.
        public var password: String?
        /// The database to connect to.
        public var database: String
        /// Whether connections use TLS. Defaults to ``TLSMode/disable``; use
        /// ``TLSMode/require(_:)`` across a network you do not control.
        public var tls: TLSMode = .disable
        /// The isolation level of write transactions. Defaults to
        /// ``IsolationLevel/serializable``: concurrent writes behave as if
        /// they had run one after another, as on `MockDB` and `SQLiteDB`,
        /// and the ones that cannot are rolled back as conflicts (and
        /// retried, see ``conflictRetries``).
        public var isolation: IsolationLevel = .serializable
        /// How many times a transaction rolled back by a conflict
        /// (serialization failure or deadlock) runs again before the
        /// conflict is thrown. Defaults to 3; 0 turns retries off.
        public var conflictRetries: Int = 3
        /// The most connections the pool opens at once. Defaults to 20.
        public var maximumConnections: Int = 20
        /// How long opening a connection may take before it fails, and how
        /// long a transaction waits for a connection of the pool: a
        /// transaction that gets none fails within this plus one second
        /// (the time to find the cause). Defaults to 10 seconds.
        public var connectTimeout: Duration = .seconds(10)
        /// The table behind ``/TransactionKit/KeyValueStore`` on this
        /// database, in the connection's schema search path. Defaults to
        /// `transactionkit_key_value`, the name of `SQLiteDB`'s table.
        /// ``PostgresDB/open(_:logger:)`` creates it when it is missing.
        public var keyValueTable: String = "transactionkit_key_value"

        /// A server reached over TCP.
        ///
        /// - Parameters:
        ///   - host: The server's host name or address.
        ///   - port: The server's TCP port; 5432 by default.
        ///   - username: The role to connect as.
        ///   - password: The role's password, or `nil` for trust
        ///     authentication.
        ///   - database: The database to connect to.
        public init(host: String, port: Int = 5432, username: String, password: String? = nil, database: String) {
            self.endpoint = .tcp(host: host, port: port)
            self.username = username
            self.password = password
            self.database = database
        }

        /// A server reached through its Unix-domain socket file.
        ///
        /// - Parameters:
        ///   - unixSocketPath: The path of the socket file
        ///     (`/run/postgresql/.s.PGSQL.5432`).
        ///   - username: The role to connect as.
        ///   - password: The role's password, or `nil` for trust or peer
        ///     authentication.
        ///   - database: The database to connect to.
        public init(unixSocketPath: String, username: String, password: String? = nil, database: String) {
            self.endpoint = .unixSocket(path: unixSocketPath)
            self.username = username
            self.password = password
            self.database = database
        }

        /// Reads a connection URL:
        /// `postgresql://user:password@host:port/database`, or
        /// `postgres://…`. Query items: `sslmode=disable` (the default) or
        /// `require`; `host=/socket/directory` connects through the Unix
        /// socket `.s.PGSQL.<port>` in that directory, as libpq does.
        ///
        /// - Throws: ``/TransactionKit/DBError`` of kind
        ///   ``/TransactionKit/DBError/Kind/cannotOpen`` when the URL is not
        ///   one of these (the error leaves the password out).
        public init(url: String) throws {
            guard let components = URLComponents(string: url) else {
                throw Self.invalidURL(url, "expected postgresql://user:password@host:port/database")
            }
            guard components.scheme == "postgresql" || components.scheme == "postgres" else {
                throw Self.invalidURL(
                    url, "the scheme \(components.scheme.map { "\"\($0)\"" } ?? "(none)") is not supported, "
                        + "expected postgresql:// or postgres://")
            }
            let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            guard let username = components.user, !username.isEmpty, !database.isEmpty else {
                throw Self.invalidURL(url, "the URL needs a user name and a database")
            }
            let port = components.port ?? 5432
            let items = components.queryItems ?? []
            if let socketDirectory = items.first(where: { $0.name == "host" })?.value, socketDirectory.hasPrefix("/") {
                self.init(
                    unixSocketPath: socketDirectory + "/.s.PGSQL.\(port)",
                    username: username, password: components.password, database: database)
            } else {
                guard let host = components.host, !host.isEmpty else {
                    throw Self.invalidURL(url, "the URL needs a host")
                }
                self.init(host: host, port: port, username: username, password: components.password, database: database)
            }
            switch items.first(where: { $0.name == "sslmode" })?.value {
            case nil, "disable": tls = .disable
            case "require": tls = .require(.makeClientConfiguration())
            case "prefer": tls = .prefer(.makeClientConfiguration())
            case let other?:
                throw Self.invalidURL(url, "sslmode=\(other) is not supported (use disable, prefer or require)")
            }
        }

        /// The address without the password, as errors show it.
        package var displayAddress: String {
            switch endpoint {
            case let .tcp(host, port):
                let shownHost = host.contains(":") ? "[\(host)]" : host
                return "postgresql://\(username)@\(shownHost):\(port)/\(database)"
            case let .unixSocket(path):
                return "postgresql://\(username)@\(path)/\(database)"
            }
        }

        /// postgres-nio's client configuration.
        var clientConfiguration: PostgresClient.Configuration {
            var configuration: PostgresClient.Configuration
            switch endpoint {
            case let .tcp(host, port):
                configuration = .init(
                    host: host, port: port, username: username, password: password, database: database,
                    tls: tls.clientTLS)
            case let .unixSocket(path):
                configuration = .init(unixSocketPath: path, username: username, password: password, database: database)
            }
            configuration.options.maximumConnections = maximumConnections
            configuration.options.connectTimeout = connectTimeout
            return configuration
        }

        /// postgres-nio's configuration for one connection.
        package func connectionConfiguration() throws -> PostgresConnection.Configuration {
            var configuration: PostgresConnection.Configuration
            switch endpoint {
            case let .tcp(host, port):
                configuration = .init(
                    host: host, port: port, username: username, password: password, database: database,
                    tls: try tls.connectionTLS())
            case let .unixSocket(path):
                configuration = .init(unixSocketPath: path, username: username, password: password, database: database)
            }
            configuration.options.connectTimeout = .init(connectTimeout)
            return configuration
        }

        private static func invalidURL(_ url: String, _ problem: String) -> DBError {
            var error = DBError(
                kind: .cannotOpen, operation: .open, path: redacted(url),
                message: "not a PostgreSQL connection URL: \(problem)")
            error.specificSummary = "unsupported database URL"
            error.specificAdvice = "Give a URL of the form postgresql://user:password@host:port/database."
            return error
        }

        /// The URL with its password (between `:` and `@` after the
        /// scheme) replaced.
        static func redacted(_ url: String) -> String {
            guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@")
            else { return url }
            let credentials = url[schemeEnd.upperBound..<at]
            guard let colon = credentials.firstIndex(of: ":") else { return url }
            return String(url[..<colon]) + ":•••" + String(url[at...])
        }
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension PostgresDB.Configuration {
    /// Whether connections use TLS.
    public enum TLSMode: Sendable {
        /// Plain connections (a loopback address or a Unix socket).
        case disable
        /// TLS when the server offers it, plain otherwise.
        case prefer(TLSConfiguration)
        /// TLS or no connection.
        case require(TLSConfiguration)

        var clientTLS: PostgresClient.Configuration.TLS {
            switch self {
            case .disable: .disable
            case let .prefer(configuration): .prefer(configuration)
            case let .require(configuration): .require(configuration)
            }
        }

        func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
            switch self {
            case .disable: .disable
            case let .prefer(configuration): .prefer(try NIOSSLContext(configuration: configuration))
            case let .require(configuration): .require(try NIOSSLContext(configuration: configuration))
            }
        }
    }
}
#endif
