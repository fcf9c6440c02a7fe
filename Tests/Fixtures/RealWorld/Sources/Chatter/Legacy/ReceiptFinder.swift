import GRDB

/// Delivery and read receipts. Its overloads differ only by argument type
/// or by a default argument.
package final class ReceiptFinder: Sendable {
    /// What a recipient did with a message.
    package enum State: String, Sendable {
        case delivered
        case read
    }

    /// One recipient's receipt for one message.
    package struct Receipt: Equatable, Sendable {
        package var messageId: String
        package var recipient: String
        package var state: State
    }

    package init() {}

    /// The receipts of one message.
    package func receipts(for messageId: String, transaction: ChatReadTransaction) throws -> [Receipt] {
        try receipts(for: [messageId], transaction: transaction)
    }

    /// The receipts of several messages.
    package func receipts(for messageIds: [String], transaction: ChatReadTransaction) throws -> [Receipt] {
        guard !messageIds.isEmpty else { return [] }
        let marks = messageIds.map { _ in "?" }.joined(separator: ",")
        return try Row.fetchAll(
            transaction.database,
            sql: "SELECT messageId, recipient, state FROM chat_receipt WHERE messageId IN (\(marks))",
            arguments: StatementArguments(messageIds)
        ).map { row in
            Receipt(messageId: row["messageId"], recipient: row["recipient"], state: State(rawValue: row["state"]) ?? .delivered)
        }
    }

    /// Receipts not read yet, oldest first.
    package func pendingReceipts(limit: Int = 50, transaction: ChatReadTransaction) throws -> [Receipt] {
        try Row.fetchAll(
            transaction.database,
            sql: "SELECT messageId, recipient, state FROM chat_receipt WHERE state = 'delivered' LIMIT ?",
            arguments: [limit]
        ).map { row in Receipt(messageId: row["messageId"], recipient: row["recipient"], state: .delivered) }
    }

    /// Records a receipt.
    package func record(_ state: State, messageId: String, recipient: String, transaction: ChatWriteTransaction) throws {
        try transaction.database.execute(
            sql: "INSERT INTO chat_receipt (messageId, recipient, state) VALUES (?, ?, ?)",
            arguments: [messageId, recipient, state.rawValue])
    }
}
