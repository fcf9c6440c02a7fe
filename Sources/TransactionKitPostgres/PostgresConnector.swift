#if Postgres
import Logging
import PostgresNIO

/// How ``PostgresDB/open(_:logger:)`` opens its one direct connection, the
/// check that the server answers and accepts the credentials, outside the
/// pool: postgres-nio's `PostgresConnection.connect`, called once, with no
/// retry, whatever it throws.
///
/// Tests wrap ``direct`` to count the attempts an `open` makes.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
package struct PostgresConnector: Sendable {
    /// Opens one connection with `configuration`, or throws why it could
    /// not.
    package let connect: @Sendable (PostgresConnection.Configuration, Logger) async throws -> PostgresConnection

    /// A connector that calls `connect` for each connection.
    package init(_ connect: @escaping @Sendable (PostgresConnection.Configuration, Logger) async throws -> PostgresConnection) {
        self.connect = connect
    }

    /// postgres-nio's `PostgresConnection.connect`.
    package static let direct = PostgresConnector { configuration, logger in
        try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
    }
}
#endif
