import Dispatch
import Synchronization
import TransactionKit

/// A user's inbox badge (``InboxManager/newMessageCount(for:)``), kept up
/// to date by commit observation: after each commit that changed the
/// `message` table, the inbox cursors or the notification settings, it
/// counts again and reports the new number if it changed.
///
/// ```swift
/// let badge = try InboxBadge(inbox: services.inbox, userID: bob.id) { count in
///     app.setBadge(count)
/// }
/// print(badge.count)   // the count when the badge was made
/// // … keep `badge` for as long as the number is shown
/// ```
///
/// It needs no timer and no call from the code that writes: on `SQLiteDB`,
/// SQLite reports the changed tables; on `MockDB`, the key-value store
/// reports its own changes and a finder mock declares its table, in one
/// line of the test: `messages.insert.declaresChange(table: "message")`.
///
/// **Transaction semantics:** a rolled-back transaction changes nothing and
/// is not reported. Each count is one read transaction, opened after the
/// commit it reacts to; counts are taken one at a time, so a later count
/// never reads an older snapshot than an earlier one. A count whose read
/// fails leaves ``count`` as it was; the next commit counts again.
///
/// **Thread:** `onChange` runs on `queue` (a private serial queue by
/// default), outside any transaction. The count made by `init` runs on the
/// caller's thread.
///
/// **Lifetime:** the badge observes until ``cancel()`` or until it is
/// deallocated.
///
/// - Warning: Create it outside any transaction of the same `DB`: `init`
///   reads the database (nested transaction otherwise). Pass a serial
///   queue, or the calls may overlap.
public final class InboxBadge: Sendable {
    /// The user whose messages are counted.
    public let userID: Int64

    private let state: State
    private let observation: DBCommitObservation

    /// The count, shared with the observation's callback (which must not
    /// retain the badge, or the badge would live as long as the database).
    private final class State: Sendable {
        let inbox: InboxManager
        let userID: Int64
        let count = Mutex(0)
        let onChange: @Sendable (Int) -> Void

        init(inbox: InboxManager, userID: Int64, onChange: @escaping @Sendable (Int) -> Void) {
            self.inbox = inbox
            self.userID = userID
            self.onChange = onChange
        }

        /// Counts again; returns the new count when it changed.
        func recount() throws -> Int? {
            // Under the lock, so that counts happen one after the other and
            // the last one stored read the newest snapshot.
            try count.withLock { count in
                let fresh = try inbox.newMessageCount(for: userID)
                defer { count = fresh }
                return fresh == count ? nil : fresh
            }
        }
    }

    /// Counts the user's new messages and starts observing commits.
    ///
    /// - Parameters:
    ///   - inbox: The inbox manager whose database is observed.
    ///   - userID: The user.
    ///   - queue: Where `onChange` runs; `nil` for a private serial queue.
    ///   - onChange: Receives the new count after each commit that changed it.
    /// - Throws: `KeyValueStoreError` or `DBError` from the first count.
    public init(
        inbox: InboxManager,
        userID: Int64,
        queue: DispatchQueue? = nil,
        onChange: @escaping @Sendable (Int) -> Void
    ) throws {
        let state = State(inbox: inbox, userID: userID, onChange: onChange)
        self.userID = userID
        self.state = state
        // Observe first, then count: a commit in between is counted by the
        // observation, never missed.
        // snippet:begin inbox-badge-observe
        observation = inbox.db.observeCommits(
            tables: ["message"],
            keyValueCollections: [InboxManager.cursorCollection, NotificationSettings.collection],
            queue: queue
        ) { _ in
            if let count = try? state.recount() {
                state.onChange(count)
            }
        }
        // snippet:end inbox-badge-observe
        _ = try state.recount()
    }

    /// The latest count.
    public var count: Int {
        state.count.withLock { $0 }
    }

    /// Stops observing; ``count`` keeps its last value. Idempotent.
    public func cancel() {
        observation.cancel()
    }
}
