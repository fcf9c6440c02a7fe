import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import ChatCore

/// `DisappearingMessagesJob` after `txkit migrate`: expired messages deleted
/// in batches, one committed write each, on a `MockDB`; the finder and
/// record calls behind the generated `DisappearingMessagesJob.Mocks.Database`.
final class DisappearingMessagesJobMockDBTests {
    let db = MockDB()
    let notifications = PostedNotifications()
    let dataAccess = DisappearingMessagesJob.Mocks.Database()
    let job: DisappearingMessagesJob

    init() throws {
        job = DisappearingMessagesJob(db: db, dependencies: try ChatMockDB.dependencies(notifying: notifications), batchSize: 2,
                                      dataAccess: dataAccess)
    }

    @Test func expiredMessagesAreDeletedBatchByBatchThenAnnounced() throws {
        let dataAccess = self.dataAccess
        dataAccess.expiredMessageIds.stub { _ in
            [[1, 2], [3]][min(dataAccess.expiredMessageIds.callCount, 2) - 1]
        }
        dataAccess.anyRemove.returns()

        let result = try job.deleteExpiredMessages(now: 5_000)

        #expect(result == DisappearingMessagesJob.RunResult(deletedCount: 3, batchCount: 2))
        #expect(dataAccess.expiredMessageIds.calls.map { "\($0.now) \($0.limit)" } == ["5000 2", "5000 2"])
        #expect(dataAccess.anyRemove.calls == [1, 2, 3])
        #expect(db.transactionLog.writes.map(\.isCommittedWrite) == [true, true])
        #expect(Set(dataAccess.anyRemove.transactionIDs).count == 2)
        #expect(notifications.descriptions == ["expiredMessagesDeleted - count=3"])
    }

    @Test func aFullLastBatchIsFollowedByAnEmptyOne() throws {
        let dataAccess = self.dataAccess
        dataAccess.expiredMessageIds.stub { _ in dataAccess.expiredMessageIds.callCount == 1 ? [1, 2] : [] }
        dataAccess.anyRemove.returns()

        let result = try job.deleteExpiredMessages(now: 5_000)

        #expect(result == DisappearingMessagesJob.RunResult(deletedCount: 2, batchCount: 1))
        #expect(db.statistics == MockDB.Statistics(writes: 2, commits: 2))
    }

    @Test func nothingExpiredAnnouncesNothing() throws {
        dataAccess.expiredMessageIds.returns([])

        #expect(try job.deleteExpiredMessages(now: 5_000) == DisappearingMessagesJob.RunResult())
        #expect(dataAccess.anyRemove.callCount == 0)
        #expect(notifications.posted.isEmpty)
    }

    @Test func theNextExpirationIsRead() throws {
        dataAccess.nextExpirationTimestamp.returns(65_000)

        #expect(try job.nextExpirationTimestamp() == 65_000)
        #expect(dataAccess.nextExpirationTimestamp.sharedTransaction?.kind == .read)
    }
}
