#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// The value of a generic method call moved into the `Database` shim has
/// the type the call gives its generic parameter, not the parameter's
/// name: `taskStore.value(id: 3, as: String.self, transaction: db)` of
/// `func value<T>(…, as type: T.Type, …) -> T?` is a `String?`. The
/// requirement was `-> T?` ("cannot find type 'T' in scope"; fuzzer P0 of
/// seed 20261128901, issue 51).
extension MigrateTests {
    static func genericTaskStore() -> (String, String) {
        ("TaskStore.swift", """
            import GRDB
            struct TaskStore {
                init() {}
            }
            extension TaskStore {
                func value<T: DatabaseValueConvertible>(id: Int64, as type: T.Type, transaction db: Database) throws -> T? {
                    try T.fetchOne(db, sql: "SELECT name FROM t WHERE id = ?", arguments: [id])
                }
            }
            """)
    }

    @Test func aGenericCallsValueHasTheTypeTheCallGivesIt() throws {
        let result = try Self.migrate("OrderManager", [Self.manager, Self.genericTaskStore(), ("OrderManager.swift", """
            import GRDB
            final class OrderManager {
                let dbQueue: DatabaseQueue
                init(dbQueue: DatabaseQueue) {
                    self.dbQueue = dbQueue
                }
                func m0(taskStore: TaskStore) throws -> String {
                    return try dbQueue.read { db in
                        return String(describing: try taskStore.value(id: 3, as: String.self, transaction: db))
                    }
                }
            }
            """)])
        let shim = try result.file("OrderManager_DatabaseShim.swift")
        #expect(shim.contains("-> String?"), "\(shim)")
        #expect(!TypeText.identifiers(in: shim).contains("T"), "\(shim)")
    }
}
#endif
