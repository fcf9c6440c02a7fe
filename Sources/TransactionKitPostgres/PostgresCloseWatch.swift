#if Postgres
import PostgresNIO
import TransactionKit

/// The queries waiting on each open connection, told together when it
/// closes, for ``PostgresConnection/queryUnlessClosed(_:logger:file:line:)``
/// and ``PostgresConnection/resultUnlessClosed(_:logger:)``.
///
/// A connection's `closeFuture` gets one callback, the first time a query
/// is watched on it: NIO never removes a callback, so one per query would
/// grow with every statement a pooled connection runs, and would keep each
/// query's result (and its unread rows, which postgres-nio drains only when
/// they are released) alive until the connection closes. A finished query
/// unregisters itself; the connection's entry goes when it closes.
package final class PostgresCloseWatch: Sendable {
    /// The one registry of the process.
    package static let shared = PostgresCloseWatch()

    private struct Entry {
        /// Tells the connection's close callback from an older one made
        /// for another connection at the same address.
        let generation: Int
        weak var connection: PostgresConnection?
        var waiting: [Int: @Sendable () -> Void] = [:]
    }

    private struct State {
        var counter = 0
        var entries: [ObjectIdentifier: Entry] = [:]
    }

    private let state = LockedValue(State())

    /// Calls `onClose` when `connection` closes, unless ``unwatch(_:_:)``
    /// comes first. Returns the token that unregisters it.
    func watch(_ connection: PostgresConnection, onClose: @escaping @Sendable () -> Void) -> Int {
        let key = ObjectIdentifier(connection)
        let (token, generation, orphans) = state.withLock { state -> (Int, Int?, [@Sendable () -> Void]) in
            state.counter += 1
            let token = state.counter
            var generation: Int?
            var orphans: [@Sendable () -> Void] = []
            if state.entries[key]?.connection !== connection {
                // No entry, or one left by a connection at this address
                // that is gone (closed, so its waiters are told now).
                orphans = state.entries[key].map { Array($0.waiting.values) } ?? []
                state.entries[key] = Entry(generation: token, connection: connection)
                generation = token
            }
            state.entries[key]?.waiting[token] = onClose
            return (token, generation, orphans)
        }
        for orphan in orphans {
            orphan()
        }
        if let generation {
            // Already closed: NIO runs the callback at once, on the loop.
            connection.closeFuture.whenComplete { [self] _ in closed(key, generation) }
        }
        return token
    }

    /// The query of `token` finished: it no longer waits for the close.
    func unwatch(_ connection: PostgresConnection, _ token: Int) {
        let key = ObjectIdentifier(connection)
        state.withLock { state in
            _ = state.entries[key]?.waiting.removeValue(forKey: token)
        }
    }

    /// How many queries wait for `connection` to close now (for tests).
    package func watchedQueries(on connection: PostgresConnection) -> Int {
        state.withLock { $0.entries[ObjectIdentifier(connection)]?.waiting.count ?? 0 }
    }

    /// The connection closed: every query still watched on it is told, and
    /// its entry goes (a later watch, on a closed connection, makes a new
    /// one, told at once).
    private func closed(_ key: ObjectIdentifier, _ generation: Int) {
        let waiting = state.withLock { state -> [@Sendable () -> Void] in
            guard let entry = state.entries[key], entry.generation == generation else { return [] }
            state.entries[key] = nil
            return Array(entry.waiting.values)
        }
        for onClose in waiting {
            onClose()
        }
    }
}
#endif
