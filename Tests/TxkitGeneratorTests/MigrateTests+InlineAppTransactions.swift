#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// The app's transaction built inline around GRDB's (`AppReadTransaction(db)`)
/// where a static finder member or one of the consumer's own methods takes
/// it. The static call moved into a requirement named `AppReadTransaction`,
/// which then named the app's type in the consumer and shadowed it in the
/// wrapper; the call of the consumer's own method (migrated to take a
/// TransactionKit transaction) moved into the wrapper, which passed it
/// the app's transaction (fuzzer P3 and P5 of seed 20261128901, issue 51).
extension MigrateTests {
    @Test func theAppsTransactionBuiltInlineIsNotARequirementsName() throws {
        let legacy: [GeneratorConfiguration.LegacyTransaction] = [
            .init(type: "AppReadTransaction", transaction: .read, bridge: "AppReadTransaction(try SQLiteDB.shimOnlyBridge($tx))",
                  reverseBridge: .init(read: "SQLiteDB.readTransaction(bridging: $legacy.database)")),
        ]
        let result = try Self.migrate("NoteService", [Self.manager, ("AppTransaction.swift", """
            import GRDB
            class AppReadTransaction {
                let database: Database
                init(_ database: Database) { self.database = database }
            }
            enum OrderRecords {
                static func name(id: Int64, _ transaction: AppReadTransaction) throws -> String? {
                    try String.fetchOne(transaction.database, sql: "SELECT name FROM t WHERE id = ?", arguments: [id])
                }
            }
            """), ("NoteService.swift", """
            import GRDB
            final class NoteService {
                let dbQueue: DatabaseQueue
                init(dbQueue: DatabaseQueue) {
                    self.dbQueue = dbQueue
                }
                func m1() throws -> String {
                    return try dbQueue.read { db in
                        let v0 = try OrderRecords.name(id: 2, AppReadTransaction(db))
                        let v1 = try self.countNamed("nuts", transaction: AppReadTransaction(db))
                        return [String(describing: v0), String(describing: v1)].joined(separator: " ")
                    }
                }
                private func countNamed(_ name: String, transaction: AppReadTransaction) throws -> Int {
                    try Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM t WHERE name = ?", arguments: [name]) ?? 0
                }
            }
            """)], legacy: legacy)
        let consumer = try #require(result.edited["NoteService.swift"])
        #expect(!consumer.contains("AppReadTransaction"), "\(consumer)")
        #expect(consumer.contains("let v0 = try dataAccess.name(tx)"), "\(consumer)")
        #expect(consumer.contains("let v1 = try self.countNamed(\"nuts\", transaction: tx)"), "\(consumer)")
        let wrapper = try result.file("NoteService_DatabaseWrapper.swift")
        #expect(wrapper.contains("func name(_ tx: DBReadTransaction) throws -> String? {"), "\(wrapper)")
        #expect(wrapper.contains("try OrderRecords.name(id: 2, AppReadTransaction(db))"), "\(wrapper)")
    }
}
#endif
