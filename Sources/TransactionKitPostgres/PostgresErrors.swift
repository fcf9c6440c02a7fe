#if Postgres
import Foundation
import Logging
import PostgresNIO
import TransactionKit
import _ConnectionPoolModule

/// Turns postgres-nio's errors into TransactionKit's: ``/TransactionKit/DBError``
/// by SQLSTATE class, ``/TransactionKit/DBConstraintViolation`` for
/// integrity constraints, `CancellationError` for a cancelled wait.
///
/// Messages come from the server's `message` field, never its `detail`
/// (which quotes the row's values) nor the query's bound values; the path
/// names the host and database, never the password.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum PostgresErrors {
    /// Whether `error` came from the server, the connection or the pool
    /// (rather than from the user's own code).
    static func isServerOrConnectionError(_ error: any Error) -> Bool {
        error is PSQLError || error is ConnectionPoolError || error is PostgresTransactionAborted
            || error is PostgresConnectionClosed
    }

    /// The error `read` or `write` throws for `error`, raised during
    /// `operation`.
    static func map(_ error: any Error, during operation: DBError.Operation, path: String) -> any Error {
        let mapped = mapWithoutAdvice(error, during: operation, path: path)
        guard var dbError = mapped as? DBError, dbError.kind == .connectionFailed, !(error is DBError) else {
            return mapped
        }
        if let sqlState = dbError.sqlState, sqlState.hasPrefix("28") {
            dbError.specificSummary = "the server refused the credentials"
            dbError.specificAdvice = "Check the user name and password the database is configured with."
                + (operation == .open ? "" : " No transaction began.")
            return dbError
        }
        switch operation {
        case .commit:
            dbError.specificAdvice = "The connection was lost while committing: the server may or may not have "
                + "committed (isOutcomeUnknown). Check before running the transaction again."
        case .read, .write:
            dbError.specificAdvice = "Nothing of the transaction was committed: the server rolls back the "
                + "transaction of a connection that drops. Run it again once the server answers."
        case .open, .migrate, .close:
            dbError.specificAdvice = "Check that the server runs and accepts connections at this address, "
                + "and the database name."
        }
        return dbError
    }

    private static func mapWithoutAdvice(_ error: any Error, during operation: DBError.Operation, path: String) -> any Error {
        switch error {
        case let error as PSQLError:
            return map(error, during: operation, path: path)
        case let error as ConnectionPoolError:
            if error == .requestCancelled { return CancellationError() }
            if error == .poolShutdown {
                return DBError.closedDatabase(path: path, operation: operation, underlyingError: error)
            }
            return DBError(
                kind: .connectionFailed, operation: operation, path: path,
                message: "the connection pool gave up opening connections (\(error))", underlyingError: error)
        case is PostgresTransactionAborted:
            return DBError(
                kind: .other, operation: operation, path: path, sqlState: "25P02",
                message: "an error inside the transaction aborted it (the block caught that error and went on); "
                    + "the server rolled it back and nothing was committed",
                underlyingError: error)
        case is PostgresConnectionClosed:
            return DBError(
                kind: .connectionFailed, operation: operation, path: path,
                message: "the server closed the connection", underlyingError: error)
        case is CancellationError, is DBError, is DBConstraintViolation:
            return error
        default:
            return DBError(
                kind: .other, operation: operation, path: path, message: String(describing: error),
                underlyingError: error)
        }
    }

    private static func map(_ error: PSQLError, during operation: DBError.Operation, path: String) -> any Error {
        guard error.code == .server, let info = error.serverInfo, let sqlState = info[.sqlState] else {
            return DBError(
                kind: clientKind(error.code), operation: operation, path: path,
                message: clientMessage(error), underlyingError: error)
        }
        let message = info[.message] ?? ""
        if let violation = constraintKind(sqlState) {
            return DBConstraintViolation(
                kind: violation == .unique && (info[.constraintName]?.hasSuffix("_pkey") ?? false) ? .primaryKey : violation,
                table: info[.tableName],
                columns: columns(info),
                constraint: info[.constraintName],
                path: path,
                message: message,
                underlyingError: error)
        }
        return DBError(
            kind: serverKind(sqlState), operation: operation, path: path, sqlState: sqlState,
            message: message, underlyingError: error)
    }

    /// The constraint an SQLSTATE of class 23 names.
    private static func constraintKind(_ sqlState: String) -> DBConstraintViolation.Kind? {
        switch sqlState {
        case "23505": .unique
        case "23503": .foreignKey
        case "23502": .notNull
        case "23514": .check
        case _ where sqlState.hasPrefix("23"): .other
        default: nil
        }
    }

    /// The kind of a server error other than an integrity constraint.
    static func serverKind(_ sqlState: String) -> DBError.Kind {
        switch sqlState {
        case "40001", "40P01": .conflict
        case "25006": .readOnly
        case "53100": .diskFull
        case "55P03": .busy
        case "XX001", "XX002": .corrupt
        case "3D000", "57P01", "57P02", "57P03": .connectionFailed
        case _ where sqlState.hasPrefix("08") || sqlState.hasPrefix("28"): .connectionFailed
        default: .other
        }
    }

    /// The kind of an error raised by the client rather than the server.
    private static func clientKind(_ code: PSQLError.Code) -> DBError.Kind {
        switch code {
        case .poolClosed: .closed
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown,
            .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest,
            .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            .connectionFailed
        default: .other
        }
    }

    private static func clientMessage(_ error: PSQLError) -> String {
        var message = "\(error.code)"
        if let underlying = error.underlying {
            message += ": \(underlying)"
        }
        return message
    }

    /// The columns a violation names: the `column` field (not-null), or
    /// the key list of a unique or foreign-key violation's detail,
    /// `Key (a, b)=(…)`, without the values.
    private static func columns(_ info: PSQLError.ServerInfo) -> [String] {
        if let column = info[.columnName] { return [column] }
        guard let detail = info[.detail], detail.hasPrefix("Key ("),
            let end = detail.range(of: ")=(")
        else { return [] }
        let list = detail[detail.index(detail.startIndex, offsetBy: 5)..<end.lowerBound]
        return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Connects once, to fail at open time with a clear error: one call of
    /// `connector`, never retried; what it throws is mapped and thrown.
    static func checkConnection(
        _ configuration: PostgresDB.Configuration, logger: Logger, connector: PostgresConnector = .direct
    ) async throws {
        let path = configuration.displayAddress
        let connectionConfiguration: PostgresConnection.Configuration
        do {
            connectionConfiguration = try configuration.connectionConfiguration()
        } catch {
            throw DBError(
                kind: .cannotOpen, operation: .open, path: path,
                message: "the TLS configuration is not usable: \(error)", underlyingError: error)
        }
        let connection: PostgresConnection
        do {
            // The connect timeout bounds the whole attempt (postgres-nio's
            // bounds the TCP connection only, not the authentication).
            connection = try await PostgresDeadline.run(within: configuration.connectTimeout) {
                try await connector.connect(connectionConfiguration, logger)
            } abandon: { late in
                try? await late.close()
            }
        } catch is PostgresDeadline.Expired {
            var error = DBError(
                kind: .connectionFailed, operation: .open, path: path,
                message: "no answer within \(PostgresConnectFailure.seconds(configuration.connectTimeout)) (connectTimeout)")
            error.specificAdvice = "Check that the server runs and accepts connections at this address."
            throw error
        } catch {
            throw map(error, during: .open, path: path)
        }
        try? await connection.close()
    }
}
#endif
