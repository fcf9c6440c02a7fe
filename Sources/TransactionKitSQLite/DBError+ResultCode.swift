import TransactionKit

extension DBError {
    /// The name SQLite's errors carry in ``DBError/code``.
    static let sqliteCodeSystem = "SQLite result code"

    /// Creates an error that carries an SQLite extended result code.
    ///
    /// ```swift
    /// let error = DBError(kind: .busy, operation: .write, path: url.path,
    ///                     resultCode: 5, message: "database is locked")
    /// ```
    public init(
        kind: Kind,
        operation: Operation,
        path: String,
        resultCode: Int32?,
        message: String,
        underlyingError: (any Error)? = nil
    ) {
        self.init(
            kind: kind, operation: operation, path: path,
            code: resultCode.map { Code(system: Self.sqliteCodeSystem, value: String($0)) },
            message: message, underlyingError: underlyingError)
    }

    /// The SQLite extended result code of the error (`5`, `1034`), when
    /// SQLite reported it; its low byte is the primary code.
    public var resultCode: Int32? {
        get {
            guard let code, code.system == Self.sqliteCodeSystem else { return nil }
            return Int32(code.value)
        }
        set {
            code = newValue.map { Code(system: Self.sqliteCodeSystem, value: String($0)) }
        }
    }
}
