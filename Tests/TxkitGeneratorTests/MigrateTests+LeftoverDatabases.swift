#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// The `SQLiteDB` a manager held beside its pool (the step `shim --apply`
/// asks for, to bridge) is read by nothing once migrated: it goes, with
/// its initializer parameter, so that a test builds the manager on a
/// `MockDB`. Callers keep passing it to the production initializer.
extension MigrateTests {
    static func orderManager(_ sqliteDeclaration: String = "let sqlite: SQLiteDB") -> (String, String) {
        ("OrderManager.swift", """
            import GRDB
            import TransactionKitSQLite
            final class OrderManager {
                let dbQueue: DatabaseQueue
                \(sqliteDeclaration)
                init(dbQueue: DatabaseQueue, sqlite: SQLiteDB) {
                    self.dbQueue = dbQueue
                    self.sqlite = sqlite
                }
                func total() throws -> Int { try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1 } }
            }
            """)
    }

    static func entry(_ extra: String = "") -> (String, String) {
        ("Entry.swift", """
            import TransactionKitSQLite
            func run() throws -> Int {
                let sqlite = DatabaseManager.shared.sqlite!
                let manager = OrderManager(dbQueue: DatabaseManager.shared.dbQueue, sqlite: sqlite)
                \(extra)
                return try manager.total()
            }
            """)
    }

    /// Fuzzer seed 20261128901 (issue 51): 17 of 46 methods had no MockDB
    /// test because the migrated initializer still took a `SQLiteDB`.
    @Test func anSQLiteDBNothingReadsAfterMigrateGoes() throws {
        let result = try Self.migrate("OrderManager", [Self.manager, Self.orderManager(), Self.entry()])
        let consumer = try #require(result.edited["OrderManager.swift"])
        #expect(!consumer.contains("sqlite"), "\(consumer)")
        #expect(!consumer.contains("SQLiteDB"), "\(consumer)")
        #expect(!consumer.contains("import TransactionKitSQLite"), "\(consumer)")
        #expect(consumer.contains("init(db: any DB, dataAccess: any Shims.Database = Wrappers.Database()) {"), "\(consumer)")
        let production = try result.file("OrderManager+Production.swift")
        #expect(production.contains("convenience init(dbQueue: DatabaseQueue, sqlite: SQLiteDB) {\n        self.init(db: SQLiteDB.adopter(of: dbQueue))\n    }"),
                "\(production)")
    }

    /// The app's holder of a manager whose methods receive their
    /// transactions, which it held and never read, goes the same way
    /// (fuzzer P7 of seed 20261128777: the migrated file still named
    /// `AppDatabase`, and no MockDB test could build it).
    @Test func aHolderNothingReadsAfterMigrateGoes() throws {
        // Another type's `manager` read where nothing names `Ledger` is not its.
        let result = try Self.migrate("Ledger", [Self.manager, ("Owner.swift", """
            final class Owner {
                let manager: DatabaseManager
                init(manager: DatabaseManager) { self.manager = manager }
            }
            final class Reader {
                let owner: Owner
                init(owner: Owner) { self.owner = owner }
                var manager: DatabaseManager { owner.manager }
            }
            """), ("Ledger.swift", """
            import GRDB
            final class Ledger {
                private let manager: DatabaseManager
                init(manager: DatabaseManager) {
                    self.manager = manager
                }
                func count(db: Database) throws -> Int {
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0
                }
            }
            """)])
        let ledger = try #require(result.edited["Ledger.swift"])
        #expect(!ledger.contains("DatabaseManager"), "\(ledger)")
        #expect(ledger.contains("init(dataAccess: any Shims.Database = Wrappers.Database()) {"), "\(ledger)")
        let production = try result.file("Ledger+Production.swift")
        #expect(production.contains("convenience init(manager: DatabaseManager) {\n        self.init()\n    }"), "\(production)")
    }

    /// One that other code reads (`manager.sqlite`), or that the manager
    /// itself still reads, stays.
    @Test func anSQLiteDBStillReadStays() throws {
        let readOutside = try Self.migrate("OrderManager", [Self.manager, Self.orderManager(), Self.entry("_ = manager.sqlite")])
        let consumer = try #require(readOutside.edited["OrderManager.swift"])
        #expect(consumer.contains("let sqlite: SQLiteDB"), "\(consumer)")
        #expect(consumer.contains("init(db: any DB, sqlite: SQLiteDB, dataAccess: any Shims.Database = Wrappers.Database()) {"), "\(consumer)")

        let readInside = try Self.migrate("OrderManager", [
            Self.manager, Self.orderManager("let sqlite: SQLiteDB\n    var label: String { \"\\(sqlite)\" }"), Self.entry(),
        ])
        let inside = try #require(readInside.edited["OrderManager.swift"])
        #expect(inside.contains("let sqlite: SQLiteDB"), "\(inside)")
        #expect(inside.contains("self.sqlite = sqlite"), "\(inside)")
    }
}
#endif
