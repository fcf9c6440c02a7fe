#if Postgres
import Foundation
import NIOCore
import PostgresNIO
import TransactionKit

/// Why a connection to the server could not be opened, as
/// ``PostgresConnectionSource`` reports it: each cause with its own words
/// and advice, none claiming a rollback (no transaction began).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum PostgresConnectFailure: Sendable {
    /// The server refused the user name or password (SQLSTATE class 28).
    case authentication(sqlState: String, message: String)
    /// The server has no database of that name (SQLSTATE 3D000).
    case unknownDatabase(message: String)
    /// No server answered at the address: refused, unreachable, or no
    /// answer within the limit.
    case unreachable(String)
    /// The server answered a direct connection at once, yet the pool had
    /// handed out none.
    case noConnectionFromPool
    /// The waiting task was cancelled.
    case cancelled
    /// Another failure, described.
    case other(String)

    init(_ error: any Error) {
        if let error = error as? DBError, let underlying = error.underlyingError {
            self.init(underlying)
            return
        }
        guard let error = error as? PSQLError else {
            self = .unreachable(String(describing: error))
            return
        }
        if error.code == .server, let info = error.serverInfo, let sqlState = info[.sqlState] {
            let message = info[.message] ?? ""
            if sqlState.hasPrefix("28") {
                self = .authentication(sqlState: sqlState, message: message)
            } else if sqlState == "3D000" {
                self = .unknownDatabase(message: message)
            } else {
                self = .other("\(sqlState): \(message)")
            }
            return
        }
        if let underlying = error.underlying {
            self = .unreachable(String(describing: underlying))
        } else {
            self = .unreachable("\(error.code)")
        }
    }

    /// The error a transaction throws.
    func error(
        waited: Duration, operation: DBError.Operation, path: String, configuration: PostgresDB.Configuration
    ) -> DBError {
        let timeout = Self.seconds(configuration.connectTimeout)
        let waitedText = Self.seconds(waited)
        var error: DBError
        switch self {
        case let .authentication(sqlState, message):
            error = DBError(
                kind: .connectionFailed, operation: operation, path: path, sqlState: sqlState, message: message)
            error.specificSummary = "the server refused the credentials"
            error.specificAdvice = "Check the user name and password the database is configured with. "
                + "No transaction began."
        case let .unknownDatabase(message):
            error = DBError(kind: .connectionFailed, operation: operation, path: path, sqlState: "3D000", message: message)
            error.specificSummary = "the server has no such database"
            error.specificAdvice = "Check the database name, or create the database. No transaction began."
        case let .unreachable(cause):
            error = DBError(
                kind: .connectionFailed, operation: operation, path: path,
                message: "no connection after \(waitedText) (connectTimeout \(timeout)): \(cause)")
            error.specificAdvice = "Check that the server runs and accepts connections at this address. "
                + "No transaction began; run it again once the server answers."
        case .noConnectionFromPool:
            error = DBError(
                kind: .connectionFailed, operation: operation, path: path,
                message: "the pool handed out no connection within \(waitedText) (connectTimeout \(timeout)), "
                    + "though the server answers now")
            error.specificAdvice = "The pool may be waiting to retry after an outage, or all of its connections "
                + "(maximumConnections) are busy: no transaction began; the next one starts from a fresh pool."
        case .cancelled:
            error = DBError(
                kind: .connectionFailed, operation: operation, path: path,
                message: "no connection after \(waitedText) (connectTimeout \(timeout))")
            error.specificAdvice = "No transaction began."
        case let .other(cause):
            error = DBError(
                kind: .connectionFailed, operation: operation, path: path,
                message: "no connection after \(waitedText) (connectTimeout \(timeout)): \(cause)")
            error.specificAdvice = "No transaction began."
        }
        return error
    }

    /// `1.2 s`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return String(format: "%.1f s", value)
    }
}
#endif
