#if Postgres
import TransactionKit

extension DBError {
    /// The name PostgreSQL's errors carry in ``DBError/code``.
    static let sqlStateSystem = "SQLSTATE"

    /// Creates an error that carries the SQLSTATE a server reported.
    ///
    /// ```swift
    /// let error = DBError(kind: .conflict, operation: .commit, path: "postgresql://app@db/app",
    ///                     sqlState: "40001", message: "could not serialize access")
    /// ```
    public init(
        kind: Kind,
        operation: Operation,
        path: String,
        sqlState: String?,
        message: String,
        underlyingError: (any Error)? = nil
    ) {
        self.init(
            kind: kind, operation: operation, path: path,
            code: sqlState.map { Code(system: Self.sqlStateSystem, value: $0) },
            message: message, underlyingError: underlyingError)
    }

    /// The five-character SQLSTATE the server reported (`40001`), when the
    /// error came from PostgreSQL.
    public var sqlState: String? {
        get {
            guard let code, code.system == Self.sqlStateSystem else { return nil }
            return code.value
        }
        set {
            code = newValue.map { Code(system: Self.sqlStateSystem, value: $0) }
        }
    }
}
#endif
