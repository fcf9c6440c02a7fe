#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// A static finder that returns a legacy value (`fetchOrDefault(for:
/// transaction:)`), then an instance method on that value that takes the
/// transaction (`updateWith(isArchived:transaction:)`): issue 51's repro
/// from a public messaging app, which `shim --apply` refuses. Migrate
/// moves both into the `Database` shim; the value passes through the
/// consumer as a plain parameter of the second requirement.
extension MigrateTests {
    @Test func aValueFetchedByAStaticFinderIsUpdatedThroughTheShim() throws {
        let result = try Self.migrate("ThreadManager", [Self.manager, ("ThreadAssociatedData.swift", """
            import GRDB
            final class ThreadAssociatedData {
                let threadId: String
                private(set) var isArchived: Bool
                init(threadId: String, isArchived: Bool) {
                    self.threadId = threadId
                    self.isArchived = isArchived
                }
                static func fetchOrDefault(for threadId: String, transaction db: Database) -> ThreadAssociatedData {
                    let archived = (try? Bool.fetchOne(db, sql: "SELECT archived FROM t WHERE id = ?", arguments: [threadId])) ?? nil
                    return ThreadAssociatedData(threadId: threadId, isArchived: archived ?? false)
                }
                func updateWith(isArchived: Bool, transaction db: Database) {
                    self.isArchived = isArchived
                    try? db.execute(sql: "UPDATE t SET archived = ? WHERE id = ?", arguments: [isArchived, threadId])
                }
            }
            """), ("ThreadManager.swift", """
            import GRDB
            final class ThreadManager {
                let dbQueue: DatabaseQueue
                init(dbQueue: DatabaseQueue = DatabaseManager.shared.dbQueue) {
                    self.dbQueue = dbQueue
                }
                func archive(threadId: String) throws {
                    try dbQueue.write { db in
                        let data = ThreadAssociatedData.fetchOrDefault(for: threadId, transaction: db)
                        data.updateWith(isArchived: true, transaction: db)
                    }
                }
            }
            """)])
        let consumer = try #require(result.edited["ThreadManager.swift"])
        #expect(consumer.contains("""
                    try db.write { tx in
                        let data = try dataAccess.fetchOrDefault(for: threadId, tx)
                        try dataAccess.updateWith(threadAssociatedData: data, isArchived: true, tx)
                    }
            """), "\(consumer)")
        let shim = try result.file("ThreadManager_DatabaseShim.swift")
        #expect(shim.contains("func fetchOrDefault(for threadId: String, _ tx: DBReadTransaction) throws -> ThreadAssociatedData"), "\(shim)")
        #expect(shim.contains("func updateWith(threadAssociatedData: ThreadAssociatedData, isArchived: Bool, _ tx: DBWriteTransaction) throws"), "\(shim)")
    }
}
#endif
