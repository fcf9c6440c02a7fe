#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Remembers, per thread, which databases have a synchronous transaction
/// block running on this thread, so that a nested transaction is caught
/// before it reaches the backend. (An ``AsyncDB`` block may hop threads:
/// ``TaskActiveTransactions`` marks its task instead.)
package enum ActiveTransactions {
    // A synchronous block runs from start to end on one thread, so marking that
    // thread is enough, whichever thread called `read` or `write`. The record
    // is an intrusive list: a per-thread object (one `pthread_getspecific`)
    // points at the innermost running transaction, whose `outerActive` points
    // at the next one out. Its pointers are unretained: the engine keeps a
    // transaction alive exactly as long as it is in the list, and strong
    // references cost (Benchmarks/README.md, "What safety costs":
    // `empty_read_tx` and `empty_write_tx`, mockdb).

    /// This thread's innermost running transaction. Only its own thread
    /// touches it, and no access spans a call: no exclusivity check needed.
    final class Innermost {
        // Unchecked for `empty_read_tx` and `empty_write_tx` (mockdb).
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
        let mark = enter(transaction)
        defer { leave(transaction, mark) }
        return try body()
    }

    /// Where ``enter(_:)`` put a transaction in this thread's list, for
    /// ``leave(_:_:)``.
    struct Mark {
        fileprivate let slot: Innermost
        fileprivate let outer: UnsafeMutableRawPointer?
    }

    /// Marks this thread as running the block of `transaction` until
    /// ``leave(_:_:)``: ``whileActive(_:_:)`` without its closure and its
    /// generic result, for the engine's own steps, which run on every
    /// transaction.
    ///
    /// - Warning: Call ``leave(_:_:)`` on the same thread, on every path
    ///   (a `defer`), and keep `transaction` alive until then.
    @inline(__always)
    static func enter(_ transaction: DBReadTransaction) -> Mark {
        let slot = current.takeUnretainedValue()
        let outer = slot.transaction
        transaction.outerActive = outer
        slot.transaction = Unmanaged.passUnretained(transaction).toOpaque()
        return Mark(slot: slot, outer: outer)
    }

    /// Ends what ``enter(_:)`` began: the thread's innermost running
    /// transaction is again the one that was when `transaction` entered.
    @inline(__always)
    static func leave(_ transaction: DBReadTransaction, _ mark: Mark) {
        mark.slot.transaction = mark.outer
        transaction.outerActive = nil
    }
}

extension ActiveTransactions {
    /// Marks `transaction` active on this thread until ``end(_:)``, for a
    /// transaction whose lifetime is not a block of ours: one bridged from a
    /// transaction the application opened itself. Transactions of the same
    /// database opened on this thread meanwhile are reported as nested.
    ///
    /// - Warning: Call ``end(_:)`` on the same thread, and keep `transaction`
    ///   alive until then (the list holds it unretained).
    package static func begin(_ transaction: DBReadTransaction) {
        let slot = current.takeUnretainedValue()
        transaction.outerActive = slot.transaction
        slot.transaction = Unmanaged.passUnretained(transaction).toOpaque()
    }

    /// Ends what ``begin(_:)`` began, wherever `transaction` is in this
    /// thread's list.
    package static func end(_ transaction: DBReadTransaction) {
        guard let thread = pthread_getspecific(key) else { return }
        let slot = Unmanaged<Innermost>.fromOpaque(thread).takeUnretainedValue()
        let target = Unmanaged.passUnretained(transaction).toOpaque()
        if slot.transaction == target {
            slot.transaction = transaction.outerActive
            transaction.outerActive = nil
            return
        }
        var pointer = slot.transaction
        while let current = pointer {
            let inner = Unmanaged<DBReadTransaction>.fromOpaque(current).takeUnretainedValue()
            if inner.outerActive == target {
                inner.outerActive = transaction.outerActive
                transaction.outerActive = nil
                return
            }
            pointer = inner.outerActive
        }
    }
}

extension ActiveTransactions {
    /// The innermost transaction of `scope` whose block runs on this thread
    /// on `connection`, if any: what a bridge of that connection stands
    /// for when the connection came from the transaction itself (a shim's
    /// wrapper handed it to legacy code that bridges it back).
    package static func active(in scope: DatabaseScope, on connection: AnyObject) -> DBReadTransaction? {
        guard let thread = pthread_getspecific(key) else { return nil }
        var pointer = Unmanaged<Innermost>.fromOpaque(thread).takeUnretainedValue().transaction
        while let current = pointer {
            let transaction = Unmanaged<DBReadTransaction>.fromOpaque(current).takeUnretainedValue()
            if transaction.scope === scope, transaction.connection === connection {
                return transaction
            }
            pointer = transaction.outerActive
        }
        return nil
    }

    /// The trace of the innermost traced transaction whose block runs on
    /// this thread, if any.
    package static var innermostTrace: TransactionTrace? {
        guard let thread = pthread_getspecific(key) else { return nil }
        var pointer = Unmanaged<Innermost>.fromOpaque(thread).takeUnretainedValue().transaction
        while let current = pointer {
            let transaction = Unmanaged<DBReadTransaction>.fromOpaque(current).takeUnretainedValue()
            if let trace = transaction.trace {
                return trace
            }
            pointer = transaction.outerActive
        }
        return nil
    }
}
