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
package enum ActiveTransactions {
    struct Entry {
        let scope: ObjectIdentifier
        let kind: TransactionKind
        let openedAt: CallSite
    }

    final class Stack {
        var entries: [Entry] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<Stack>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<Stack>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "TransactionKit: pthread_key_create failed (\(status))")
        return key
    }()

    private static var currentStack: Stack {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Stack>.fromOpaque(pointer).takeUnretainedValue()
        }
        let stack = Stack()
        pthread_setspecific(key, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    /// Stops the process if this thread runs a transaction block of `scope`.
    package static func checkNotNested(
        in scope: DatabaseScope,
        kind: TransactionKind,
        at callSite: CallSite
    ) {
        let id = ObjectIdentifier(scope)
        guard let pointer = pthread_getspecific(key) else { return }
        let stack = Unmanaged<Stack>.fromOpaque(pointer).takeUnretainedValue()
        for entry in stack.entries where entry.scope == id {
            Misuse.nestedTransaction(
                kind: kind,
                outerKind: entry.kind,
                outerOpenedAt: entry.openedAt,
                at: callSite)
        }
    }

    /// Runs `body` with this thread marked as running a block of `scope`.
    package static func whileActive<R>(
        in scope: DatabaseScope,
        kind: TransactionKind,
        openedAt callSite: CallSite,
        _ body: () throws -> R
    ) rethrows -> R {
        let stack = currentStack
        stack.entries.append(Entry(scope: ObjectIdentifier(scope), kind: kind, openedAt: callSite))
        defer { stack.entries.removeLast() }
        return try body()
    }
}
