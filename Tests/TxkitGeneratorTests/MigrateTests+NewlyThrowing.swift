#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// Code moved into the `Database` shim is called with `try` (the
/// requirement's bridge can throw) where the code it replaces did not
/// throw; the function around it then throws, or the migration refuses
/// with its place. `await TaskStore.insert(name: "x", db)` of a
/// non-throwing `async` member, in a non-throwing method taking `db:
/// Database`, became `await try dataAccess.insertTaskStore(db)` in a method
/// that does not throw: "errors thrown from here are not handled" (fuzzer
/// P11 and P12 of seed 20261128313, issue 51).
extension MigrateTests {
    static let insertingTaskStore = ("TaskStore.swift", """
        import GRDB
        enum TaskStore {
            static func insert(name: String, _ db: Database) async -> Int64 {
                try? db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: [name])
                return db.lastInsertedRowID
            }
            static func count(_ db: Database) -> Int { db.changesCount }
        }
        """)

    static func service(_ body: String) -> (String, String) {
        ("ProfileService.swift", """
            import GRDB
            final class ProfileService {
                init() {}
            \(body)
            }
            """)
    }

    /// A method that took the legacy transaction becomes `throws`: only the
    /// consumer calls the new signature (its callers keep the old one in
    /// `+Production.swift`, which catches), and `try` goes before `await`.
    @Test func aMethodTakingTheTransactionThrowsWhenMovedCodeNowDoes() throws {
        let result = try Self.migrate("ProfileService", [Self.manager, Self.insertingTaskStore, Self.service("""
                func m0(db: Database) async -> String {
                    return String(describing: await TaskStore.insert(name: "P11.m0", db))
                }
                func m1(db: Database) async -> String {
                    await m0(db: db)
                }
            """)])
        let consumer = try #require(result.edited["ProfileService.swift"])
        #expect(consumer.contains("func m0(db: DBWriteTransaction) async throws -> String {"), "\(consumer)")
        #expect(consumer.contains("String(describing: try await dataAccess.insertTaskStore(db))"), "\(consumer)")
        #expect(!consumer.contains("await try"), "\(consumer)")
        #expect(consumer.contains("func m1(db: DBWriteTransaction) async throws -> String {"), "\(consumer)")
        #expect(consumer.contains("try await m0(db: db)"), "\(consumer)")
        let production = try result.file("ProfileService+Production.swift")
        #expect(production.contains("func m0(db: Database) async -> String {\n        do {"), "\(production)")
    }

    /// Moved code inside `do { … } catch { … }`, or under `try?`, is
    /// handled where it is: the method keeps its signature.
    @Test func movedCodeThatIsCaughtLeavesTheMethodAsItWas() throws {
        let result = try Self.migrate("ProfileService", [Self.manager, Self.insertingTaskStore, Self.service("""
                func caught(db: Database) -> Int {
                    do {
                        try check()
                        return TaskStore.count(db)
                    } catch {
                        return -1
                    }
                }
                func optional(db: Database) -> Int? {
                    try? TaskStore.count(db)
                }
                func check() throws {}
            """)])
        let consumer = try #require(result.edited["ProfileService.swift"])
        #expect(consumer.contains("func caught(db: DBReadTransaction) -> Int {"), "\(consumer)")
        #expect(consumer.contains("return try dataAccess."), "\(consumer)")
        #expect(consumer.contains("func optional(db: DBReadTransaction) -> Int? {"), "\(consumer)")
        #expect(consumer.contains("try? dataAccess."), "\(consumer)")
    }
    /// An awaited call that changes a local (`try await NameStore.fill(&names,
    /// db)`) moves whole: the wrapper copies the local, awaits the call and
    /// returns it; the consumer assigns it back, awaiting (2d11ecc, which
    /// had no test: both sides said `try` without `await`).
    @Test func anAwaitedCallThatChangesALocalIsAwaitedOnBothSides() throws {
        let result = try Self.migrate("Counter", [Self.manager, ("Counter.swift", """
            import GRDB
            enum NameStore {
                static func fill(_ names: inout [String], _ db: Database) async throws {
                    names += try String.fetchAll(db, sql: "SELECT name FROM t")
                }
            }
            final class Counter {
                init() {}
                func m0(db: Database) async throws -> String {
                    var names: [String] = []
                    try await NameStore.fill(&names, db)
                    return names.joined()
                }
            }
            """)])
        let consumer = try #require(result.edited["Counter.swift"])
        #expect(consumer.contains("names = try await dataAccess.fill(names: names, db)"), "\(consumer)")
        let wrapper = try result.file("Counter_DatabaseWrapper.swift")
        #expect(wrapper.contains("""
                    var names = names
                    try await NameStore.fill(&names, db)
                    return names
            """), "\(wrapper)")
    }

    /// Two calls that now throw in one method that did not: the method is
    /// marked `throws` once. Each asked for it, and the edit was made twice
    /// ("'throws' has already been specified": migrate refused to write a
    /// file that does not parse; found while looking for the double `try`
    /// below).
    @Test func aMethodWithTwoNewlyThrowingCallsThrowsOnce() throws {
        let result = try Self.migrate("C", [("TaskStore.swift", """
            import GRDB
            final class TaskStore {
                init() {}
                func count(db: Database) -> Int { (try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")) ?? -1 }
                func name(id: Int64, db: Database) -> String? { (try? String.fetchOne(db, sql: "SELECT name FROM t WHERE id = ?", arguments: [id])) ?? nil }
            }
            """), ("C.swift", """
            import GRDB
            final class C {
                init() {}
                func m(taskStore: TaskStore, db: Database) -> String {
                    return String(describing: taskStore.name(id: 3, db: db)) + " " + String(describing: taskStore.count(db: db))
                }
            }
            """)])
        let consumer = try #require(result.edited["C.swift"])
        #expect(consumer.contains("func m(taskStore: TaskStore, db: DBReadTransaction) throws -> String {"), "\(consumer)")
        #expect(consumer.contains(
            "return String(describing: try dataAccess.name(taskStore: taskStore, id: 3, db)) + \" \" + String(describing: try dataAccess.count(taskStore: taskStore, db))"),
            "\(consumer)")
    }

    /// A `try` asked for inside code another edit replaces whole is moot:
    /// the replacement tries its own call. Both together were refused as
    /// "txkit would edit the same code twice (`return try dataAccess.m(…)`
    /// and `try `)" (7 services in the 2,000 programs of seed 20261128400).
    @Test func aTryInsideReplacedCodeIsDropped() {
        let replaced = TextEdit(start: 10, end: 40, replacement: "return try dataAccess.m(tx)")
        let inside = TextEdit(start: 20, end: 20, replacement: "try ")
        let atStart = TextEdit(start: 10, end: 10, replacement: "try ")
        let throwing = TextEdit(start: 5, end: 5, replacement: " throws")
        // Before a replaced expression, it stays: `try self.finder.m(db)`.
        let finder = TextEdit(start: 50, end: 56, replacement: "self.finder")
        let beforeFinder = TextEdit(start: 50, end: 50, replacement: "try ")
        let kept = ConsumerMigration.withoutRedundantEdits([throwing, replaced, inside, throwing, atStart, finder, beforeFinder])
        #expect(kept == [throwing, replaced, finder, beforeFinder])
        #expect(TextEdit.overlappingPairs(kept).isEmpty)
    }
}
#endif
