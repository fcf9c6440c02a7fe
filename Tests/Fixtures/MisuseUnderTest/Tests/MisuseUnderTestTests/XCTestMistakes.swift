import XCTest

final class XCTestMistakes: XCTestCase {
    func testPassesBefore() throws { XCTAssertEqual(try Mistakes.correctUse(), 43) }
    func testEscaped() throws { try Mistakes.escapedTransaction() }
    func testNested() throws { try Mistakes.nestedTransaction() }
    func testBridge() throws { try Mistakes.mockTransactionAtTheBridge() }
    func testUnimplemented() throws { try Mistakes.forgottenStub() }
    func testPrecondition() throws { try Mistakes.escapedTransactionInAMock() }
    func testSavepoint() throws { try Mistakes.savepointOnAnEscapedTransaction() }
    func testPassesAfter() throws { XCTAssertEqual(try Mistakes.correctUse(), 43) }
}
