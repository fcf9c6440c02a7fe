extension DBReadTransaction {
    /// The connection this transaction runs on, for a bridge that hands it to
    /// data-access code (`SQLiteDB.shimOnlyBridge(_:)` and its peers).
    ///
    /// Each bridge asks for the one connection type its database hands out.
    /// The checks run in this order, so that the most useful message wins: a
    /// transaction of a database without connections (a test double) is
    /// refused first, whatever its state; then one of a database whose
    /// connections have another type; then an inactive transaction (escaped,
    /// or used on another thread or task).
    ///
    /// - Parameters:
    ///   - type: The connection type the bridge returns.
    ///   - bridge: The bridge's name, for messages (`"SQLiteDB.shimOnlyBridge"`).
    ///   - callSite: The bridge's caller.
    /// - Throws: `DBMisuseError` naming the bridge and the call site, after
    ///   reporting it (which stops the process outside a test runner).
    package func connection<Connection: AnyObject>(
        as type: Connection.Type,
        bridge: String,
        at callSite: CallSite
    ) throws(DBMisuseError) -> Connection {
        guard let connectionType = scope.connectionType else {
            throw Misuse.connectionlessTransactionBridged(
                bridge: bridge, databaseName: scope.databaseName, at: callSite)
        }
        guard ObjectIdentifier(connectionType) == ObjectIdentifier(type) else {
            throw Misuse.transactionBridgedToAnotherDatabase(
                bridge: bridge, databaseName: scope.databaseName, at: callSite)
        }
        if let misuse = checkActive(for: bridge, at: callSite) {
            throw misuse
        }
        // The scope promised this type: a backend that hands another one is
        // TransactionKit's own bug. An identity check and an unchecked
        // downcast, not `as? Connection`: this function is not specialized
        // in the backends, and a generic `as?` goes through the runtime's
        // dynamic cast on every bridged call (txkit-bench `point_read_tx`).
        guard let connection, ObjectIdentifier(Swift.type(of: connection)) == ObjectIdentifier(type) else {
            preconditionFailure("TransactionKit internal error: a \(scope.databaseName) transaction without its connection")
        }
        return unsafeDowncast(connection, to: Connection.self)
    }
}
