#if Txkit
import Testing
@testable import TxkitGenerator

/// A consumer holding a finder whose pair txkit cannot shim is refused for
/// the shim's reason, at the use, with the shim's fix.
extension MigrateTests {
    /// `taskStore.insert(name:db:)` is isolated to the actor `TaskStore` and
    /// takes the connection, which a wrapper would send into the actor. The
    /// refusal said "the block returns a String only GRDB declares" (String
    /// is the standard library's; the shape of fuzzer P1039 of seed
    /// 20261128700, whose isolated member, a property, is now shimmed).
    @Test func aFinderWhoseShimIsRefusedIsNamedWithTheShimsReason() throws {
        let refusals = try Self.refusals("TaskManager", [
            ("TaskStore.swift", """
                import GRDB
                actor TaskStore {
                    init() {}
                    var label: String { "TaskStore" }
                    func insert(name: String, db: Database) async throws -> Int64 {
                        try db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: [name])
                        return db.lastInsertedRowID
                    }
                }
                """),
            ("TaskManager.swift", """
                import GRDB
                final class TaskManager: Sendable {
                    private let taskStore = TaskStore()
                    init() {}
                    func add(db: Database) async throws -> String {
                        return await taskStore.label + " " + String(try await taskStore.insert(name: "a", db: db))
                    }
                }
                """),
        ])
        #expect(refusals.count == 1, "\(refusals)")
        let refusal = try #require(refusals.first)
        #expect(refusal.contains("TaskManager.swift:6: TaskManager.add: the code uses `taskStore`, whose shim txkit cannot write"), "\(refusal)")
        #expect(refusal.contains("TaskStore.insert(name:db:) is a method isolated to the actor TaskStore"), "\(refusal)")
        #expect(refusal.contains("make it `nonisolated`"), "\(refusal)")
        #expect(!refusal.contains("only GRDB declares"), "\(refusal)")
    }
}
#endif
