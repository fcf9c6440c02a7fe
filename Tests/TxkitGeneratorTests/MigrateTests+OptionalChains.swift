#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// A member read at the end of an optional chain is optional:
/// `try Note.fetchOne(db, key: 2)?.title` is a `String?`. The typer read
/// it as `String`, so a variable bound to it became a `String` parameter
/// or result of a requirement, and the migrated code did not compile
/// ("value of optional type 'String?' must be unwrapped"; fuzzer P3 of
/// seed 20261128901, issue 51).
extension MigrateTests {
    @Test func aMemberReadThroughAnOptionalChainIsOptional() throws {
        let result = try Self.migrate("NoteService", [Self.manager, Self.note, ("NoteService.swift", """
            import GRDB
            final class NoteService {
                let dbQueue: DatabaseQueue
                init(dbQueue: DatabaseQueue) {
                    self.dbQueue = dbQueue
                }
                func m2() throws -> String {
                    return try dbQueue.read { db in
                        let v0 = try Note.exists(db, key: 3)
                        let v1 = try Note.fetchOne(db, key: 2)?.title
                        let v2 = try Row.fetchAll(db, sql: "SELECT title FROM note").map { row in
                            let title: String = row["title"]
                            return title
                        }.joined(separator: ",")
                        return [String(describing: v0), String(describing: v1), v2].joined(separator: " ")
                    }
                }
            }
            """)])
        let shim = try result.file("NoteService_DatabaseShim.swift")
        // The statements after it, whose closure does not say its result
        // type, move with `v1` as a parameter.
        #expect(shim.contains("v1: String?, "), "\(shim)")
    }
}
#endif
