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
/// `write`, and whether the call was sync or async. (An ``AsyncDB`` block
/// may suspend and resume elsewhere: ``TaskActiveTransactions`` marks its
/// task instead.)
///
/// The record is an intrusive list: a per-thread object, found with one
/// `pthread_getspecific`, points at the innermost running transaction, whose
/// ``DBReadTransaction/outerActive`` points at the next one out. Entering
/// and leaving a block costs that lookup and two plain stores, with no
/// allocation and no reference counting: a transaction is kept alive by the
/// engine for as long as its block runs, which is exactly as long as it stays
/// in the list. The list holds unretained pointers for that reason: with
/// strong references instead, an empty MockDB write and read cost 14 % more
/// instructions (callgrind) and more time (Benchmarks/README.md, "What
/// safety costs").
package enum ActiveTransactions {
    /// This thread's innermost running transaction. Only its own thread
    /// touches it, and no access spans a call: no exclusivity check needed.
    final class Innermost {
        @exclusivity(unchecked) var transaction: UnsafeMutableRawPointer?
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<Innermost>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<Innermost>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "TransactionKit: pthread_key_create failed (\(status))")
        return key
    }()

    /// This thread's slot, created on first use and released when the
    /// thread exits. The thread-local value owns it, so callers use it
    /// without retaining it.
    private static var current: Unmanaged<Innermost> {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Innermost>.fromOpaque(pointer)
        }
        let innermost = Unmanaged.passRetained(Innermost())
        pthread_setspecific(key, innermost.toOpaque())
        return innermost
    }

    /// Reports a misuse if this thread runs a transaction block of `scope`:
    /// returns the error to throw when a test runner recorded it (see
    /// ``Misuse``), `nil` when the transaction does not nest.
    package static func checkNotNested(
        in scope: DatabaseScope,
        kind: TransactionKind,
        at callSite: CallSite
    ) -> DBMisuseError? {
        guard let thread = pthread_getspecific(key) else { return nil }
        var pointer = Unmanaged<Innermost>.fromOpaque(thread).takeUnretainedValue().transaction
        while let current = pointer {
            let outer = Unmanaged<DBReadTransaction>.fromOpaque(current).takeUnretainedValue()
            if outer.scope === scope {
                return Misuse.nestedTransaction(
                    kind: kind,
                    outerKind: outer.kind,
                    outerOpenedAt: outer.openedAt,
                    at: callSite)
            }
            pointer = outer.outerActive
        }
        return nil
    }

    /// Runs `body` with this thread marked as running the block of `transaction`.
    package static func whileActive<R>(
        _ transaction: DBReadTransaction,
        _ body: () throws -> R
    ) rethrows -> R {
        let innermost = current
        let slot = innermost.takeUnretainedValue()
        let outer = slot.transaction
        transaction.outerActive = outer
        slot.transaction = Unmanaged.passUnretained(transaction).toOpaque()
        defer {
            slot.transaction = outer
            transaction.outerActive = nil
        }
        return try body()
    }
}
