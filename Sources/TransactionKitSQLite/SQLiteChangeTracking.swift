import GRDB
import TransactionKit

/// Installs ``SQLiteChangeTracker`` on the writer connection while commit
/// observers or live values exist, and removes it when the last one goes.
///
/// **When:** the registration of an observer returns only once the tracker
/// is on the writer (it waits for the write running then, if any, to end),
/// so every commit after the registration is heard: the first fetch of a
/// live value, which follows its registration, can miss no commit. An
/// observer registered from inside a write on the writer's queue hears that
/// write's changes made after its registration. The removal is scheduled
/// on the writer's queue and does not wait.
///
/// **Threads:** any. `isInstalled` and the tracker's presence on the writer
/// change together, under one lock, on the writer's queue.
final class SQLiteChangeTracking: Sendable {
    private struct State {
        var isInstalled = false
        var isClosed = false
    }

    let tracker: SQLiteChangeTracker
    private let writer: any DatabaseWriter
    private let observers: CommitObservers
    private let state = LockedValue(State())

    init(writer: any DatabaseWriter, tracker: SQLiteChangeTracker, observers: CommitObservers) {
        self.writer = writer
        self.tracker = tracker
        self.observers = observers
    }

    /// Makes `observers` drive the tracker's installation.
    func activate() {
        observers.activate(CommitObservers.Activation(
            observerAdded: { [weak self] in self?.observerAdded() },
            lastObserverRemoved: { [weak self] in self?.lastObserverRemoved() }))
    }

    /// Whether the tracker is on the writer.
    var isInstalled: Bool {
        state.withLock { $0.isInstalled }
    }

    private func observerAdded() {
        // Installed now means installed for as long as this observer lives:
        // a later removal re-checks the observers under the same lock.
        if state.withLock({ $0.isInstalled || $0.isClosed }) { return }
        writer.unsafeReentrantWrite { db in update(db) }
    }

    private func lastObserverRemoved() {
        if state.withLock({ !$0.isInstalled || $0.isClosed }) { return }
        writer.asyncWriteWithoutTransaction { [weak self] db in self?.update(db) }
    }

    /// Removes the tracker for good (the database is closing); on the
    /// writer's queue.
    func close(_ db: Database) {
        state.withLock { $0.isClosed = true }
        update(db)
    }

    /// Installs or removes the tracker to match the observers; on the
    /// writer's queue.
    private func update(_ db: Database) {
        state.withLock { state in
            let wanted = !state.isClosed && observers.hasObservers
            guard wanted != state.isInstalled else { return }
            if wanted {
                db.add(transactionObserver: tracker, extent: .observerLifetime)
            } else {
                db.remove(transactionObserver: tracker)
            }
            state.isInstalled = wanted
        }
    }
}
