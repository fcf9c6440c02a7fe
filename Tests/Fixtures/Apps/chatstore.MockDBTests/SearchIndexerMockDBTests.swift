import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import ChatCore

/// `SearchIndexer` after `txkit migrate`: its SQL behind the generated
/// `SearchIndexer.Mocks.Database`, on a `MockDB`.
struct SearchIndexerMockDBTests {
    let db = MockDB()
    let dataAccess = SearchIndexer.Mocks.Database()

    var indexer: SearchIndexer { SearchIndexer(db: db, dataAccess: dataAccess) }

    @Test func rebuildingEmptiesTheIndexThenIndexesEachMessageWithTextInOneWrite() throws {
        dataAccess.deleteFromMessageSearchIndex.returns()
        dataAccess.insertIntoMessageSearchIndex.returns()
        // The wrapper walks every message and hands each to `indexMessage`.
        dataAccess.rebuildIndex.stubWithTransaction { _, indexMessage, tx in
            let tx = try #require(tx as? DBWriteTransaction)
            let text = Message(uniqueId: "a", threadUniqueId: "calice", messageType: .incoming, body: "Hello  World", timestamp: 1)
            text.id = 1
            let info = Message(uniqueId: "b", threadUniqueId: "gteam", messageType: .info, body: "Dave joined", timestamp: 2)
            info.id = 2
            let empty = Message(uniqueId: "c", threadUniqueId: "calice", messageType: .outgoing, body: nil, timestamp: 3)
            empty.id = 3
            for message in [text, info, empty] { try indexMessage(message, tx) }
            return 3
        }

        let count = try indexer.rebuildIndex()

        #expect(count == 3)
        #expect(dataAccess.insertIntoMessageSearchIndex.calls.map { "\($0.rowId) \($0.body)" } == ["1 Hello  World"])
        let order = db.transactionLog.calls(to: dataAccess.deleteFromMessageSearchIndex, dataAccess.rebuildIndex, dataAccess.insertIntoMessageSearchIndex)
        #expect(order.map(\.member) == [
            dataAccess.deleteFromMessageSearchIndex.member, dataAccess.rebuildIndex.member, dataAccess.insertIntoMessageSearchIndex.member,
        ])
        let write = try #require(db.transactionLog.sharedTransaction(
            of: dataAccess.deleteFromMessageSearchIndex, dataAccess.rebuildIndex, dataAccess.insertIntoMessageSearchIndex))
        #expect(write.isCommittedWrite)
    }

    @Test func searchNormalizesAndEscapesTheText() throws {
        let result = SearchResult(messageUniqueId: "a", threadUniqueId: "calice", body: "100% sure")
        dataAccess.search.returns([result])

        let found = try indexer.search("  100%   SURE_ ", limit: 3)

        #expect(found == [result])
        #expect(dataAccess.search.calls.map(\.pattern) == [#"100\% sure\_"#])
        #expect(dataAccess.search.calls.map(\.limit) == [3])
        #expect(db.statistics == MockDB.Statistics(reads: 1))
    }

    @Test func blankTextSearchesNothing() throws {
        #expect(try indexer.search(" \t ").isEmpty)
        #expect(db.statistics == MockDB.Statistics())
    }
}
