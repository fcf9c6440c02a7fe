#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Remembers, per thread, which databases have a transaction whose block is
/// running on this thread. That is how a nested transaction is caught before
/// it reaches the backend (where it would deadlock or trip GRDB's own
/// reentrancy check with a less helpful message).
///
/// A block is synchronous, so it runs from start to end on one thread: marking
/// the thread that runs the block is enough, whichever thread called `read` or
/// `write`, and whether the call was sync or async.
///
/// The record is an intrusive list: the thread-local slot points at the
/// innermost running transaction's lifecycle, whose
/// ``TransactionLifecycle/outerActive`` points at the next one out. Entering
/// and leaving a block costs one `pthread_getspecific` and two
/// `pthread_setspecific`, with no allocation and no reference counting: a
/// lifecycle is kept alive by the engine for as long as its block runs, which
/// is exactly as long as it stays in the list.
package enum ActiveTransactions {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "TransactionKit: pthread_key_create failed (\(status))")
        return key
    }()

    /// Stops the process if this thread runs a transaction block of `scope`.
    package static func checkNotNested(
        in scope: DatabaseScope,
        kind: TransactionKind,
        at callSite: CallSite
    ) {
        var pointer = pthread_getspecific(key)
        while let current = pointer {
            let entry = Unmanaged<TransactionLifecycle>.fromOpaque(current).takeUnretainedValue()
            if entry.scope === scope {
                Misuse.nestedTransaction(
                    kind: kind,
                    outerKind: entry.kind,
                    outerOpenedAt: entry.openedAt,
                    label: scope.label,
                    at: callSite)
            }
            pointer = entry.outerActive
        }
    }

    /// Runs `body` with this thread marked as running the block of `lifecycle`.
    package static func whileActive<R>(
        _ lifecycle: TransactionLifecycle,
        _ body: () throws -> R
    ) rethrows -> R {
        let outer = pthread_getspecific(key)
        lifecycle.outerActive = outer
        pthread_setspecific(key, Unmanaged.passUnretained(lifecycle).toOpaque())
        defer {
            pthread_setspecific(key, outer)
            lifecycle.outerActive = nil
        }
        return try body()
    }
}
