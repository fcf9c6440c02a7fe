import TransactionKit

/// `MockDB` as an ``/TransactionKit/AsyncDB``: transactions whose blocks
/// suspend. The write lock is held across the block's suspensions, so
/// writes stay serialized; a write waiting for it suspends its task.
extension MockBackend: AsyncTransactionBackend {
    func performAsyncRead<R: Sendable>(_ body: @Sendable (AnyObject?) async throws -> R) async throws -> R {
        try Task.checkCancellation()
        try beginRead()
        return try await body(nil)
    }

    func performAsyncWrite<R: Sendable>(
        _ body: @Sendable (AnyObject?) async throws -> R,
        onCommit: @Sendable (DBChanges) -> Void
    ) async throws -> R {
        try Task.checkCancellation()
        try checkWritable()
        await state.writeLock.lock()
        defer { state.writeLock.unlock() }
        try Task.checkCancellation()
        state.didBeginWrite()
        let value: R
        do {
            value = try await body(nil)
        } catch {
            rollBackLocked()
            throw error
        }
        try commitLocked(onCommit: onCommit)
        return value
    }
}
