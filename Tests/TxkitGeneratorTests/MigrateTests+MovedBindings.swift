#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// A method whose block yields a GRDB value moves whole into a
/// requirement, but for its first statement when that bound the global
/// database (`guard let database = Env.current.database else { … }`):
/// production looks the database up. The binding was deleted and moved
/// too, and migrate refused with "txkit would edit the same code twice"
/// (fuzzer P2 and P8 of seed 20261128777, issue 51).
extension MigrateTests {
    @Test func aBindingInAMethodMovedWholeIsEditedOnce() throws {
        let result = try Self.migrate("Rules", [("Env.swift", """
            import GRDB
            import TransactionKitSQLite
            actor LedgerDatabase {
                nonisolated let pool: DatabasePool
                nonisolated let sqlite: SQLiteDB
                init() throws { pool = try DatabasePool(path: "/tmp/l.sqlite"); sqlite = try SQLiteDB(adopting: pool) }
                func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T { try await pool.read(body) }
            }
            struct Env { var database: LedgerDatabase!; static var current = Env() }
            enum RulesError: Error { case notConfigured }
            """), ("Rules.swift", """
            import GRDB
            final class Rules {
                init() {}
                func titles() async throws -> String {
                    guard let database = Env.current.database else { throw RulesError.notConfigured }
                    let rows = try await database.read { db in try Row.fetchAll(db, sql: "SELECT title FROM note") }
                    return rows.map { row -> String in row["title"] }.joined(separator: ",")
                }
            }
            """)])
        let rules = try #require(result.edited["Rules.swift"])
        #expect(!rules.contains("Env.current"), "\(rules)")
        #expect(!rules.contains("Row"), "\(rules)")
        // The wrapper runs the method's code without the lookup, which
        // production does.
        let wrapper = try result.file("Rules_DatabaseWrapper.swift")
        #expect(!wrapper.contains("Env.current"), "\(wrapper)")
        #expect(wrapper.contains("let rows = try"), "\(wrapper)")
        let production = try result.file("Rules+Production.swift")
        #expect(production.contains("guard let database = Env.current.database else { throw RulesError.notConfigured }"), "\(production)")
    }
}
#endif
