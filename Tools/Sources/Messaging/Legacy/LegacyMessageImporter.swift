import Foundation
import GRDB
import TransactionKitSQLite

/// A legacy job: imports the messages that reached the app's old e-mail
/// gateway into a conversation.
///
/// It predates TransactionKit and stays as it is: it writes with plain GRDB
/// inside the app's own `writer.write { database in … }`. At one seam it
/// calls migrated code: it bridges its own GRDB transaction with
/// `db.writeTransaction(bridging:)` and hands the result to
/// ``ChatManager/didImport(_:into:_:)``, so that the rows it inserted and
/// the manager's work commit or roll back together.
///
/// ```swift
/// let importer = LegacyMessageImporter(app: app, db: db, chat: services.chat)
/// let messages = try importer.importMessages(records, into: conversation.id)
/// ```
///
/// **Transaction semantics:** one call is one transaction of the app's
/// writer; a sender nobody registered, or a refusal of the manager, rolls
/// all of it back. Recipients are notified after the app's commit.
///
/// **Thread:** any; the call blocks while the app's writer runs it.
///
/// - Warning: Do not call it from inside a transaction of the app's
///   database or of `db` (nested transaction).
package struct LegacyMessageImporter: Sendable {
    /// One message as the gateway received it.
    package struct Record: Sendable, Equatable {
        /// The sender's user name (names ignore case).
        package var sender: String
        /// The text, imported as is.
        package var body: String
        /// When the gateway received it.
        package var sentAt: Date

        package init(sender: String, body: String, sentAt: Date) {
            self.sender = sender
            self.body = body
            self.sentAt = sentAt
        }
    }

    /// Why an import was refused.
    package enum Failure: Error, Equatable, Sendable {
        /// No user has this name.
        case unknownSender(String)
    }

    let app: LegacyAppDatabase
    let db: SQLiteDB
    let chat: ChatManager

    /// Creates the job.
    ///
    /// - Parameters:
    ///   - app: The app's database, which the job writes with plain GRDB.
    ///   - db: The `SQLiteDB` that adopted `app`'s pool or queue.
    ///   - chat: The migrated manager the job tells about the import.
    package init(app: LegacyAppDatabase, db: SQLiteDB, chat: ChatManager) {
        self.app = app
        self.db = db
        self.chat = chat
    }

    /// Inserts the records as messages of the conversation, all or nothing.
    ///
    /// - Returns: The inserted messages, in the records' order.
    /// - Throws: ``Failure/unknownSender(_:)``, a `ChatManager.Failure`
    ///   (nothing is written in either case), or GRDB's `DatabaseError`.
    package func importMessages(_ records: [Record], into conversationID: Int64) throws -> [Message] {
        // snippet:begin legacy-importer
        try app.writer.write { database in
            // The seam, first thing in the app's transaction: from here on it
            // is also a TransactionKit transaction, and the commit observers
            // of `db` hear the tables it changes.
            let tx = try db.writeTransaction(bridging: database)

            // Legacy code as it always was: plain GRDB on `database`.
            var imported: [Message] = []
            for record in records {
                guard let senderID = try Int64.fetchOne(
                    database, sql: "SELECT id FROM user WHERE name = ?", arguments: [record.sender])
                else {
                    throw Failure.unknownSender(record.sender)
                }
                try database.execute(
                    sql: "INSERT INTO message (conversationID, senderID, body, sentAt) VALUES (?, ?, ?, ?)",
                    arguments: [conversationID, senderID, record.body, record.sentAt])
                imported.append(Message(
                    id: database.lastInsertedRowID, conversationID: conversationID, senderID: senderID,
                    body: record.body, sentAt: record.sentAt))
            }

            // Migrated code, in the same transaction.
            try chat.didImport(imported, into: conversationID, tx)
            return imported
        }
        // snippet:end legacy-importer
    }
}
