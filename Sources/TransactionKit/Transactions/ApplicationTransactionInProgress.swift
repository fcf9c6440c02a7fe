/// Thrown by a backend whose connection is already inside a transaction
/// that the application opened itself, outside TransactionKit, on the same
/// thread (for example a `db.write` called from inside the application's
/// own GRDB `write` on the adopted pool). The engine reports it as a nested
/// transaction at the caller's call site.
package struct ApplicationTransactionInProgress: Error {
    package init() {}
}
