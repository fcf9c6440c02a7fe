/// A ``DB`` whose ``DatabaseScope`` the core may reach: `SQLiteDB` and
/// `MockDB`. Commit observation, a `DB` extension, finds the observers
/// there.
package protocol DatabaseScopeProviding {
    /// The database's scope.
    var databaseScope: DatabaseScope { get }
}

extension DB {
    /// This database's scope; stops the process for a `DB` that is neither
    /// an `SQLiteDB` nor a `MockDB` (applications do not implement `DB`).
    func requireScope(for use: String) -> DatabaseScope {
        guard let provider = self as? any DatabaseScopeProviding else {
            preconditionFailure(
                "TransactionKit: \(use) needs a DB built on TransactionKit's engine, not \(type(of: self))")
        }
        return provider.databaseScope
    }
}
