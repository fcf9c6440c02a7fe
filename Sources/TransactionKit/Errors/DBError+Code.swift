extension DBError {
    /// A storage's own code for an error, with the name the storage gives
    /// its codes.
    ///
    /// ```swift
    /// if let code = error.code {
    ///     log("\(code.system) \(code.value)")   // "SQLite result code 8", "SQLSTATE 40001"
    /// }
    /// ```
    ///
    /// The backend modules read it typed: `error.resultCode` (an `Int32`)
    /// with TransactionKitSQLite, `error.sqlState` with
    /// TransactionKitPostgres.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The name of the storage's code family, as its documentation
        /// writes it: `SQLite result code`, `SQLSTATE`.
        public var system: String
        /// The code, as the storage reports it: `8`, `40001`.
        public var value: String

        /// Creates a code.
        public init(system: String, value: String) {
            self.system = system
            self.value = value
        }

        /// The system and the value: `SQLite result code 8`.
        public var description: String { "\(system) \(value)" }
    }
}
