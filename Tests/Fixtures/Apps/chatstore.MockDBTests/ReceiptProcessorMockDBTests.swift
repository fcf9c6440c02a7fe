import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import ChatCore

/// `ReceiptProcessor` after `txkit migrate`: receipts applied in one write of
/// a `MockDB`, the records behind the generated
/// `ReceiptProcessor.Mocks.Database`, the notification after the commit.
final class ReceiptProcessorMockDBTests {
    let db = MockDB()
    let notifications = PostedNotifications()
    let dataAccess = ReceiptProcessor.Mocks.Database()
    let processor: ReceiptProcessor

    init() throws {
        processor = ReceiptProcessor(db: db, dependencies: try ChatMockDB.dependencies(notifying: notifications), dataAccess: dataAccess)
    }

    static func outgoing(_ uniqueId: String, timestamp: UInt64) -> Message {
        let message = Message(uniqueId: uniqueId, threadUniqueId: "calice", messageType: .outgoing, body: "Hi", timestamp: timestamp)
        message.deliveryState = .sent
        return message
    }

    @Test func newReceiptsAreAppliedDuplicatesAndUnknownMessagesCounted() throws {
        let first = Self.outgoing("m1", timestamp: 100)
        let third = Self.outgoing("m3", timestamp: 300)
        dataAccess.outgoingMessage.stub { timestamp in [100: first, 300: third][timestamp] }
        dataAccess.hasReceipt.stub { arguments in arguments.messageUniqueId == "m3" }
        dataAccess.anyInsert.stub { receipt in
            var saved = receipt
            saved.id = 1
            return saved
        }
        dataAccess.anyUpdate.stub { message, block in block(message) }

        let result = try processor.processReceipts(from: "alice", type: .delivered, sentTimestamps: [100, 200, 300], receivedAt: 900)

        #expect(result == ReceiptProcessingResult(applied: 1, duplicates: 1, unknownMessages: 1))
        #expect(first.deliveryState == .delivered && third.deliveryState == .sent)
        #expect(dataAccess.hasReceipt.calls.map { "\($0.type) \($0.messageUniqueId) \($0.recipientAddress)" } == ["delivered m1 alice", "delivered m3 alice"])
        #expect(dataAccess.anyInsert.calls.map { "\($0.messageUniqueId) \($0.recipientAddress) \($0.type) \($0.timestamp)" } == ["m1 alice delivered 900"])
        let write = try #require(db.transactionLog.sharedTransaction(
            of: dataAccess.outgoingMessage, dataAccess.hasReceipt, dataAccess.anyInsert, dataAccess.anyUpdate))
        #expect(write.isCommittedWrite && write.hooks.syncCompletions == 1)
        #expect(notifications.descriptions == ["receiptsProcessed alice type=delivered"])
    }

    @Test func aReadReceiptNeverLowersTheState() throws {
        let message = Self.outgoing("m1", timestamp: 100)
        message.deliveryState = .read
        dataAccess.outgoingMessage.returns(message)
        dataAccess.hasReceipt.returns(false)
        dataAccess.anyInsert.stub { receipt in receipt }
        dataAccess.anyUpdate.stub { message, block in block(message) }

        _ = try processor.processReceipts(from: "alice", type: .delivered, sentTimestamps: [100], receivedAt: 900)

        #expect(message.deliveryState == .read)
    }

    @Test func nothingAppliedAnnouncesNothing() throws {
        dataAccess.outgoingMessage.returns(nil)

        let result = try processor.processReceipts(from: "alice", type: .read, sentTimestamps: [1, 2], receivedAt: 900)

        #expect(result == ReceiptProcessingResult(applied: 0, duplicates: 0, unknownMessages: 2))
        #expect(db.transactionLog.writes.map(\.hooks.syncCompletions) == [0])
        #expect(notifications.posted.isEmpty)
    }

    @Test func theSummaryCountsReceiptsByTypeFromOneRead() throws {
        let message = Self.outgoing("m1", timestamp: 100)
        message.deliveryState = .read
        dataAccess.anyFetch.returns(message)
        dataAccess.receipts.returns([
            Receipt(messageUniqueId: "m1", recipientAddress: "alice", type: .sent, timestamp: 1),
            Receipt(messageUniqueId: "m1", recipientAddress: "alice", type: .delivered, timestamp: 2),
            Receipt(messageUniqueId: "m1", recipientAddress: "bob", type: .delivered, timestamp: 3),
        ])

        #expect(try processor.receiptSummary(forMessageUniqueId: "m1") == "sent=1 delivered=2 read=0 state=read")
        let read = try #require(db.transactionLog.sharedTransaction(of: dataAccess.anyFetch, dataAccess.receipts))
        #expect(read.kind == .read)
    }

    @Test func theSummaryOfAnUnknownMessageFails() throws {
        dataAccess.anyFetch.returns(nil)

        #expect(throws: ChatError.messageNotFound("m9")) { try self.processor.receiptSummary(forMessageUniqueId: "m9") }
        #expect(dataAccess.receipts.callCount == 0)
    }
}
