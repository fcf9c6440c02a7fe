#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// A holder's method that takes its block beside another closure
/// (`storage.asyncWrite(block: { transaction in … }, completion: { … })`)
/// is a transaction block: its block is the closure the holder's
/// declaration gives the legacy transaction. It was skipped (a call with
/// two closures was no block), so migrate said "migrated" and left the
/// method on the app's storage, reached through `AppEnvironment` (fuzzer
/// P16 of seed 20261128313, issue 51).
extension MigrateTests {
    static let completionStorage = ("Storage.swift", """
        import GRDB
        import TransactionKitSQLite
        final class AppWriteTransaction {
            let database: Database
            init(_ database: Database) { self.database = database }
        }
        final class Storage {
            private let pool: DatabaseQueue
            let sqlite: SQLiteDB
            init(pool: DatabaseQueue) throws {
                self.pool = pool
                sqlite = try SQLiteDB(adopting: pool)
            }
            func write<T>(_ block: (AppWriteTransaction) throws -> T) throws -> T {
                try pool.write { db in try block(AppWriteTransaction(db)) }
            }
            func asyncWrite(block: @escaping (AppWriteTransaction) throws -> Void, completion: ((Error?) -> Void)?) {
                do { try write(block); completion?(nil) } catch { completion?(error) }
            }
        }
        struct AppEnvironment { var storage: Storage!; nonisolated(unsafe) static var current = AppEnvironment() }
        enum AppError: Error { case notConfigured }
        """)

    static let writeTransaction = GeneratorConfiguration.LegacyTransaction(
        type: "AppWriteTransaction", transaction: .write, bridge: "AppWriteTransaction(try SQLiteDB.shimOnlyBridge($tx))",
        reverseBridge: .init(write: "SQLiteDB.writeTransaction(bridging: $legacy.database)"))

    static func ledger(_ method: String) -> (String, String) {
        ("Ledger.swift", """
            import GRDB
            final class Ledger {
                init() {}
                func add() throws -> String {
                    var outcome = "pending"
            \(method)
                    return outcome
                }
            }
            """)
    }

    /// Through a global: the requirement reads the holder at each call, as
    /// the consumer did, and throws what its `guard` threw; the escaping
    /// block names the shim with `self.`.
    @Test func aGlobalHoldersAsyncWriteReadsTheHolderAtEachCall() throws {
        let result = try Self.migrate("Ledger", [Self.completionStorage, Self.ledger("""
                    guard let storage = AppEnvironment.current.storage else { throw AppError.notConfigured }
                    storage.asyncWrite(block: { transaction in
                        try transaction.database.execute(sql: "INSERT INTO t(name) VALUES ('a')")
                    }, completion: { error in
                        outcome = error == nil ? "done" : "failed"
                    })
            """)], legacy: [Self.writeTransaction])
        let ledger = try #require(result.edited["Ledger.swift"])
        #expect(!ledger.contains("AppEnvironment"), "\(ledger)")
        #expect(!ledger.contains("any DB"), "\(ledger)")
        #expect(ledger.contains("try dataAccess.asyncWrite(block: { tx in"), "\(ledger)")
        #expect(ledger.contains("try self.dataAccess."), "\(ledger)")
        let wrapper = try result.file("Ledger_DatabaseWrapper.swift")
        #expect(wrapper.contains("init() {}"), "\(wrapper)")
        #expect(wrapper.contains("""
                func asyncWrite(block: @escaping (DBWriteTransaction) throws -> Void, completion: ((Error?) -> Void)?) throws {
                    guard let storage = AppEnvironment.current.storage else { throw AppError.notConfigured }
                    storage.asyncWrite(block:
            """), "\(wrapper)")
    }

    /// Held in a stored property: the wrapper holds the holder, as before.
    @Test func aStoredHoldersAsyncWriteWithACompletionIsABlock() throws {
        let result = try Self.migrate("Ledger", [Self.completionStorage, ("Ledger.swift", """
            import GRDB
            final class Ledger {
                let storage: Storage
                init(storage: Storage) { self.storage = storage }
                func add() -> String {
                    var outcome = "pending"
                    storage.asyncWrite(block: { transaction in
                        try transaction.database.execute(sql: "INSERT INTO t(name) VALUES ('a')")
                    }, completion: { error in
                        outcome = error == nil ? "done" : "failed"
                    })
                    return outcome
                }
            }
            """)], legacy: [Self.writeTransaction])
        let ledger = try #require(result.edited["Ledger.swift"])
        #expect(ledger.contains("func add() -> String {"), "\(ledger)")
        #expect(ledger.contains("dataAccess.asyncWrite(block: { tx in"), "\(ledger)")
        #expect(!ledger.contains("transaction.database"), "\(ledger)")
        let wrapper = try result.file("Ledger_DatabaseWrapper.swift")
        #expect(wrapper.contains("init(storage: Storage) {"), "\(wrapper)")
        // The wrapper holds a `Storage`, which is not `Sendable`: neither is the shim.
        let shim = try result.file("Ledger_DatabaseShim.swift")
        #expect(shim.contains("protocol Ledger_DatabaseShim {"), "\(shim)")
    }

    /// A `Sendable` holder keeps the shim `Sendable`, which a `Sendable`
    /// consumer's stored shim needs ("stored property 'dataAccess' of
    /// 'Sendable'-conforming class 'LedgerService' has non-Sendable type";
    /// fuzzer P19 of seed 20261128316).
    @Test func aSendableHolderKeepsTheShimSendable() throws {
        let storage = (Self.completionStorage.0, Self.completionStorage.1.replacingOccurrences(of: "final class Storage {", with: "final class Storage: Sendable {"))
        let result = try Self.migrate("Ledger", [storage, ("Ledger.swift", """
            import GRDB
            final class Ledger: Sendable {
                let storage: Storage
                init(storage: Storage) { self.storage = storage }
                func add() {
                    storage.asyncWrite(block: { transaction in
                        try transaction.database.execute(sql: "INSERT INTO t(name) VALUES ('a')")
                    }, completion: nil)
                }
            }
            """)], legacy: [Self.writeTransaction])
        let shim = try result.file("Ledger_DatabaseShim.swift")
        #expect(shim.contains("protocol Ledger_DatabaseShim: Sendable {"), "\(shim)")
    }
}
#endif
