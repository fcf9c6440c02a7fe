#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// A `map` whose closure says what it returns (`.map { row -> String in
/// … }`) gives an array of that type, so the expression around it
/// (`….joined(separator: ",")`) has a type and moves alone. It had none, and
/// with a finder call after it in the block, the statements could not move
/// either: refused, "cannot tell the type of `v0`" (fuzzer P10 of seed
/// 20261128315, issue 51).
extension MigrateTests {
    @Test func aMapWhoseClosureSaysItsResultTypeIsTyped() throws {
        let result = try Self.migrate("Counter", [Self.manager, ("UserFinder.swift", """
            import GRDB
            final class UserFinder {
                init() {}
                func insert(name: String, in db: Database) -> Int64 {
                    try? db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: [name])
                    return db.lastInsertedRowID
                }
            }
            """), ("Counter.swift", """
            import GRDB
            final class Counter {
                let dbQueue: DatabaseQueue
                let userFinder: UserFinder
                init(dbQueue: DatabaseQueue = DatabaseManager.shared.dbQueue, userFinder: UserFinder) {
                    self.dbQueue = dbQueue
                    self.userFinder = userFinder
                }
                func m1() throws -> String {
                    try dbQueue.write { db in
                        let v0 = try Row.fetchAll(db, sql: "SELECT id, name FROM t").map { row -> String in
                            let name: String = row["name"]
                            return name
                        }.joined(separator: ",")
                        let v2 = userFinder.insert(name: "x", in: db)
                        return "\\(v0) \\(v2)"
                    }
                }
            }
            """)])
        let consumer = try #require(result.edited["Counter.swift"])
        #expect(consumer.contains("let v0 = try dataAccess."), "\(consumer)")
        let shim = try result.file("Counter_DatabaseShim.swift")
        #expect(shim.contains("(_ tx: DBReadTransaction) throws -> String"), "\(shim)")
    }
}
#endif
