/// What a storage engine provides to ``TransactionEngine``: a way to run a
/// body inside one read transaction or one write transaction, and a way to
/// turn its own errors into ``DBError``.
///
/// Backends know nothing of the transaction lifecycle, hooks or misuse
/// checks: the engine owns them, so that every backend behaves the same.
package protocol TransactionBackend: Sendable {
    /// Whether transactions from this backend are mock transactions, which
    /// `SQLiteDB.shimOnlyBridge(_:)` refuses.
    var isMock: Bool { get }

    /// Runs `body` inside one read transaction, passing the connection that
    /// `SQLiteDB.shimOnlyBridge(_:)` hands out (or `nil`).
    func performRead<R>(_ body: (AnyObject?) throws -> R) throws -> R

    /// Runs `body` inside one write transaction: commits when it returns,
    /// rolls back and rethrows its error when it throws.
    func performWrite<R>(_ body: (AnyObject?) throws -> R) throws -> R

    /// The async variant of ``performRead(_:)-(_)``.
    func performRead<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R

    /// The async variant of ``performWrite(_:)-(_)``.
    func performWrite<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R

    /// Turns an error raised by the backend itself (opening, beginning,
    /// committing) into a ``DBError``.
    func storageError(from error: any Error, during operation: DBError.Operation) -> any Error

    /// Given an error thrown by the user's block, returns the error `read` or
    /// `write` rethrows: a ``DBError`` for storage faults, the error itself
    /// otherwise.
    func blockError(from error: any Error, during operation: DBError.Operation) -> any Error
}
