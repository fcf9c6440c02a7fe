import Foundation
import TransactionKit

extension InboxManager {
    // snippet:begin inbox-catch-up
    /// Moves the inbox cursor of each of `userIDs` to the latest message of
    /// their conversations, as ``markInboxSeen(userID:)`` does for one user:
    /// the maintenance job that clears everyone's badge after an import.
    ///
    /// ```swift
    /// let moved = try inbox.markInboxesSeen(userIDs: everyone)
    /// ```
    ///
    /// **Transaction semantics:** one write transaction until
    /// `yieldTxAfter` seconds have elapsed, then the next
    /// (`TimeGatedBatch.enumerateObjects`), so that other writers get their
    /// turn during a long job. Each user's cursor moves in one transaction;
    /// when a user fails, the users of that transaction keep their cursors,
    /// those of earlier transactions stay moved, and the error is thrown.
    ///
    /// - Parameters:
    ///   - userIDs: The users, in the order they are processed.
    ///   - yieldTxAfter: Seconds after which a transaction commits and the
    ///     next begins.
    ///   - clock: Measures elapsed time; tests inject one.
    /// - Returns: How many cursors moved.
    /// - Throws: `KeyValueStoreError` when a stored cursor is not an
    ///   integer, or `DBError`.
    public func markInboxesSeen(
        userIDs: [Int64],
        yieldTxAfter: TimeInterval = 0.5,
        clock: some TimeGatedBatchClock = .system
    ) throws -> Int {
        var moved = 0
        try TimeGatedBatch.enumerateObjects(userIDs, db: db, yieldTxAfter: yieldTxAfter, clock: clock) { userID, tx in
            if try moveInboxCursor(userID: userID, tx) { moved += 1 }
        }
        return moved
    }
    // snippet:end inbox-catch-up

    /// Moves `userID`'s inbox cursor to the latest message of their
    /// conversations, in `tx`; `false` when it was already there.
    func moveInboxCursor(userID: Int64, _ tx: DBWriteTransaction) throws -> Bool {
        var latest: Int64?
        for conversation in try conversations.conversations(memberID: userID, tx) {
            if let message = try messages.latestMessage(conversationID: conversation.id, tx) {
                latest = max(latest ?? message.id, message.id)
            }
        }
        let key = String(userID)
        let lastSeen = try cursors.getInt(key, transaction: tx).map(Int64.init)
        guard let latest, latest > lastSeen ?? Int64.min else { return false }
        try cursors.setInt(Int(latest), key: key, transaction: tx)
        return true
    }
}
