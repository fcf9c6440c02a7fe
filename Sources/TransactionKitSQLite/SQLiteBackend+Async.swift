import TransactionKit

/// ``SQLiteDB`` as an ``/TransactionKit/AsyncDB``: transactions whose blocks
/// suspend.
///
/// An async transaction is the synchronous one of ``SQLiteBackend``, on the
/// same connections with the same statements, whose body serves
/// ``SQLiteConnectionExecutor`` until the async block has ended: the block
/// runs on the connection's thread, so its finders use GRDB's `Database`
/// where GRDB allows it.
///
/// - A write holds the writer connection while its block is suspended, so
///   writes stay serialized (another write waits for it, suspended).
/// - A read of a file database holds one reader connection, and sees one
///   snapshot however long it is suspended; reads run beside the write.
/// - In memory there is one connection: a read waits for a write, and the
///   other way round.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension SQLiteBackend: AsyncTransactionBackend {
    func performAsyncRead<R: Sendable>(_ body: @Sendable (AnyObject?) async throws -> R) async throws -> R {
        try await SQLiteConnectionExecutor.run(body) { serve in
            try await performRead { connection in try serve(connection) }
        }
    }

    func performAsyncWrite<R: Sendable>(
        _ body: @Sendable (AnyObject?) async throws -> R,
        onCommit: @Sendable (DBChanges) -> Void
    ) async throws -> R {
        try await withoutActuallyEscaping(onCommit) { onCommit in
            try await SQLiteConnectionExecutor.run(body) { serve in
                try await performWrite({ connection in try serve(connection) }, onCommit: onCommit)
            }
        }
    }
}
