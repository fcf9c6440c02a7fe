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
/// **Transaction semantics:** everything written through the transaction is
/// committed together when the block returns, or rolled back together when
/// it throws. It is also a ``DBReadTransaction``: reads see the transaction's
/// own uncommitted writes.
///
/// **Hooks**, in the order they run:
/// 1. finalizations (``addFinalization(key:file:line:_:)``), inside the
///    transaction, just before the commit;
/// 2. the commit;
/// 3. sync completions (``addSyncCompletion(file:line:_:)``), after the
///    commit, before `write` returns, on the thread that called `write`;
/// 4. async completions (`addAsyncCompletion(on:)`, on a queue or an executor),
///    handed to the queue or executor you name once sync completions ran.
///
/// None of them runs if the block, a finalization, or the commit fails.
///
/// **Thread:** not `Sendable`; the compiler keeps it on the block's thread.
///
/// **Lifetime:** valid only while its block runs (finalizations included).
///
/// - Warning: Using it after its block returned stops the process with a
///   message naming the call site. Only a ``DB`` creates transactions.
public final class DBWriteTransaction: DBReadTransaction {}
