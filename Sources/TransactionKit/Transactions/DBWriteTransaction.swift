/// An opaque write transaction, handed to the block of a ``DB``'s `write`.
///
/// ```swift
/// try db.write { tx in
///     try messages.insert(message, tx)
///     tx.addFinalization(key: "touch-conversation") { tx in
///         try conversations.touch(message.conversationID, tx)
///     }
///     tx.addSyncCompletion { badge.refresh() }
/// }
/// ```
///
/// **Transaction semantics:** what the block writes commits when it
/// returns, or rolls back when it throws; reads see the uncommitted writes.
/// Hooks run in this order: finalizations, inside the transaction; the
/// commit; sync completions, on the thread that called `write`, before it
/// returns; async completions, handed to their queue or executor. None runs
/// if the block, a finalization or the commit fails.
///
/// **Thread:** not `Sendable`; the compiler keeps it on the block's thread.
///
/// **Lifetime:** valid only while its block runs (finalizations included).
///
/// - Warning: Using it after its block returned stops the process with a
///   message naming the call site. Only a ``DB`` creates transactions.
public final class DBWriteTransaction: DBReadTransaction {}
