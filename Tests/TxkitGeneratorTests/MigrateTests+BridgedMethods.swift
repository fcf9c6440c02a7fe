#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// A method that receives a TransactionKit transaction and bridges it back
/// to GRDB (`let db = try SQLiteDB.shimOnlyBridge(tx)`, or the bridge
/// inline) is bridged, not migrated: its GRDB code moves into the
/// `Database` shim and the bridge goes, the signature stays. Migrate said
/// the consumer "consumes only the abstractions already", and a `MockDB`
/// transaction reached the bridge (issue 51, item 7).
extension MigrateTests {
    @Test func aMethodThatBridgesItsTransactionIsMigrated() throws {
        let result = try Self.migrate("Counter", [Self.manager, ("Counter.swift", """
            import GRDB
            import TransactionKit
            import TransactionKitSQLite
            final class Counter {
                init() {}
                func count(tx: DBReadTransaction) throws -> Int {
                    let db = try SQLiteDB.shimOnlyBridge(tx)
                    return try Int.fetchOne(db, sql: "SELECT 1") ?? 0
                }
                func total(tx: DBWriteTransaction) throws -> Int {
                    try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT 2") ?? 0
                }
            }
            """)])
        let consumer = try #require(result.edited["Counter.swift"])
        #expect(!consumer.contains("shimOnlyBridge"), "\(consumer)")
        #expect(!consumer.contains("import GRDB"), "\(consumer)")
        #expect(consumer.contains("func count(tx: DBReadTransaction) throws -> Int {\n        return try dataAccess."), "\(consumer)")
        #expect(consumer.contains("func total(tx: DBWriteTransaction) throws -> Int {\n        try dataAccess."), "\(consumer)")
        let shim = try result.file("Counter_DatabaseShim.swift")
        #expect(shim.contains("(_ tx: DBReadTransaction) throws -> Int?"), "\(shim)")
    }

    /// A value read from the bridged connection (`db.changesCount`) that the
    /// code after it uses: the bridge's result is GRDB's `Database`, so the
    /// value is an `Int`. Migrate said "txkit cannot tell the type of `v1`"
    /// (fuzzer P862 of seed 20261128800).
    @Test func aPropertyOfTheBridgedConnectionHasItsGRDBType() throws {
        let result = try Self.migrate("Counter", [Self.manager, Self.note, ("Counter.swift", """
            import GRDB
            import TransactionKit
            import TransactionKitSQLite
            final class Counter {
                init() {}
                func touch(tx: DBWriteTransaction) throws -> String {
                    let db = try SQLiteDB.shimOnlyBridge(tx)
                    let v0 = try Note.fetchAll(db).map { "\\($0.title)!" }
                    try db.execute(sql: "UPDATE t SET name = name || ? WHERE id = ?", arguments: ["!", 2])
                    let v1 = db.changesCount
                    return [String(describing: v0), String(describing: v1)].joined(separator: " ")
                }
            }
            """)])
        let consumer = try #require(result.edited["Counter.swift"])
        #expect(!consumer.contains("shimOnlyBridge"), "\(consumer)")
        #expect(consumer.contains("func touch(tx: DBWriteTransaction) throws -> String {"), "\(consumer)")
        let shim = try result.file("Counter_DatabaseShim.swift")
        #expect(shim.contains("-> Int"), "\(shim)")
    }
}
#endif
