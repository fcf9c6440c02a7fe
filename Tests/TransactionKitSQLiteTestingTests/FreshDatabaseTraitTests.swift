import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitSQLiteTesting

@Suite("The .freshDatabase trait", .freshDatabase(TestDatabases.synthetic))
struct FreshDatabaseTraitTests {
    @Test(arguments: 0..<8)
    func eachTestCaseGetsItsOwnDatabase(index: Int) throws {
        let db = try FreshDatabase.current
        try insert("case-\(index)", into: db)
        #expect(try names(in: db) == ["fixture", "case-\(index)"])
    }

    @Test func childTasksSeeTheSameDatabase() async throws {
        let db = try FreshDatabase.current
        try insert("parent", into: db)
        let seenByChild = try await Task { try names(in: FreshDatabase.current) }.value
        #expect(seenByChild == ["fixture", "parent"])
    }

    @Test func theTraitWaitsForAsyncCompletionsBeforeTheTestEnds() async throws {
        // Run the trait's scope by hand around a body that schedules a slow
        // async completion: when the scope returns, the completion has run.
        let trait = FreshDatabaseTrait.freshDatabase(TestDatabases.synthetic)
        let test = try #require(Test.current)
        let ran = LockedValue(false)
        let seenDatabase = LockedValue<SQLiteDB?>(nil)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            let db = try FreshDatabase.current
            seenDatabase.withLock { $0 = db }
            try scheduleSlowCompletion(on: db) { ran.withLock { $0 = true } }
        }
        #expect(ran.withLock { $0 })
        let scoped = try #require(seenDatabase.withLock { $0 })
        #expect(scoped !== (try FreshDatabase.current), "the scope bound a database of its own")
        #expect(scoped.pendingAsyncCompletionCount == 0)
    }
}

@Suite("FreshDatabase without the trait")
struct FreshDatabaseWithoutTraitTests {
    @Test func currentThrowsAnErrorThatSaysHowToFixIt() {
        let error = #expect(throws: FreshDatabase.MissingTrait.self) { try FreshDatabase.current }
        #expect(error?.description.contains(".freshDatabase(template)") == true)
    }
}

func scheduleSlowCompletion(on db: SQLiteDB, _ completion: @escaping @Sendable () -> Void) throws {
    try db.write { tx in
        tx.addAsyncCompletion(on: DispatchQueue.global()) {
            Thread.sleep(forTimeInterval: 0.05)
            completion()
        }
    }
}

/// A flag set from another thread.
final class Flag: Sendable {
    private let value = LockedValue(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
