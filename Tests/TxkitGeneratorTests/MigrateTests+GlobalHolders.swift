#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// A global holder's pool read through a local
/// (`guard let database = AppEnvironment.current.database …;
/// database.dbWriter.read { … }`): production looks the database up at
/// each transaction and takes the `SQLiteDB` the holder keeps. Migrate wrote no
/// database property nor initializer (the holder opens no transaction of
/// its own, and the root kept the holder's type), and the program did not
/// build ("cannot find 'db' in scope"; fuzzer P8 of seed 20261128777,
/// issue 51).
extension MigrateTests {
    @Test func aGlobalHoldersPoolReadThroughALocalIsLookedUpAtEachTransaction() throws {
        let result = try Self.migrate("Ledger", [("Env.swift", """
            import GRDB
            import TransactionKitSQLite
            final class AppDatabase {
                let dbWriter: any DatabaseWriter
                let sqlite: SQLiteDB
                init(_ dbWriter: any DatabaseWriter) throws {
                    self.dbWriter = dbWriter
                    sqlite = try SQLiteDB(adopting: dbWriter)
                }
            }
            struct AppEnvironment { var database: AppDatabase!; nonisolated(unsafe) static var current = AppEnvironment() }
            enum AppError: Error { case notConfigured }
            """), ("Ledger.swift", """
            import GRDB
            final class Ledger {
                init() {}
                func count() throws -> Int {
                    guard let database = AppEnvironment.current.database else { throw AppError.notConfigured }
                    return try database.dbWriter.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0 }
                }
            }
            """)])
        let ledger = try #require(result.edited["Ledger.swift"])
        #expect(ledger.contains("private let db: any DB"), "\(ledger)")
        #expect(ledger.contains("init(db: any DB, dataAccess: any Shims.Database = Wrappers.Database()) {"), "\(ledger)")
        #expect(!ledger.contains("AppEnvironment"), "\(ledger)")
        let production = try result.file("Ledger+Production.swift")
        #expect(production.contains("""
                    self.init(db: SQLiteDB.deferred {
                        guard let database = AppEnvironment.current.database else { throw AppError.notConfigured }
                        return database.sqlite
                    })
            """), "\(production)")
    }
}
#endif
