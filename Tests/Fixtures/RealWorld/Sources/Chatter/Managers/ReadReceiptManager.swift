import TransactionKit
import TransactionKitSQLite

/// Records read receipts and marks threads read.
package final class ReadReceiptManager: Sendable {
    let db: any DB
    let receiptFinder: ReceiptFinder

    package init(db: any DB, receiptFinder: ReceiptFinder = ReceiptFinder()) {
        self.db = db
        self.receiptFinder = receiptFinder
    }

    /// Records that `recipient` read a message, and marks its thread read.
    package func markRead(messageId: String, threadId: String, by recipient: String) throws {
        try db.write { tx in
            let transaction = ChatWriteTransaction(try SQLiteDB.shimOnlyBridge(tx))
            try receiptFinder.record(.read, messageId: messageId, recipient: recipient, transaction: transaction)
            try InteractionFinder().markAllRead(threadId: threadId, transaction: transaction)
        }
    }

    /// How many receipts one message, and a batch of messages, have.
    package func receiptCounts(messageId: String, batch: [String]) throws -> (Int, Int) {
        try db.read { tx in
            let transaction = ChatReadTransaction(try SQLiteDB.shimOnlyBridge(tx))
            let one: [ReceiptFinder.Receipt] = try receiptFinder.receipts(for: messageId, transaction: transaction)
            let many = try receiptFinder.receipts(for: batch, transaction: transaction)
            return (one.count, many.count)
        }
    }
}
