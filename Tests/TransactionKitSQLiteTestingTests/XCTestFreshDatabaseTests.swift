import TransactionKit
import TransactionKitSQLite
import TransactionKitSQLiteTesting
import XCTest

/// The XCTest helper, used the way an XCTest suite would: in `setUp`.
final class XCTestFreshDatabaseTests: XCTestCase {
    private var db: SQLiteDB!
    private let completionRan = Flag()
    private var expectCompletionAtTearDown = false

    override func setUpWithError() throws {
        db = try makeFreshDatabase(from: TestDatabases.synthetic)
    }

    override func tearDown() {
        // XCTest runs teardown blocks before tearDown(): the helper's block
        // has waited for the async completions already.
        if expectCompletionAtTearDown {
            XCTAssertTrue(completionRan.isSet)
            XCTAssertEqual(db.pendingAsyncCompletionCount, 0)
        }
        db = nil
    }

    func testEachTestStartsFromTheTemplate() throws {
        XCTAssertEqual(try names(in: db), ["fixture"])
        try insert("first", into: db)
        XCTAssertEqual(try names(in: db), ["fixture", "first"])
    }

    func testWritesOfAnotherTestAreInvisible() throws {
        XCTAssertEqual(try names(in: db), ["fixture"])
        try insert("second", into: db)
        XCTAssertEqual(try names(in: db), ["fixture", "second"])
    }

    func testAsyncCompletionsFinishBeforeTearDown() throws {
        expectCompletionAtTearDown = true
        let flag = completionRan
        try scheduleSlowCompletion(on: db) { flag.set() }
    }
}
