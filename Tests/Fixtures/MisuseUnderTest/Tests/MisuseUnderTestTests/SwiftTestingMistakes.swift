import Testing

@Suite struct SwiftTestingMistakes {
    @Test func passesBefore() throws { #expect(try Mistakes.correctUse() == 43) }
    @Test func escaped() throws { try Mistakes.escapedTransaction() }
    @Test func nested() throws { try Mistakes.nestedTransaction() }
    @Test func bridge() throws { try Mistakes.mockTransactionAtTheBridge() }
    @Test func unimplemented() throws { try Mistakes.forgottenStub() }
    @Test func precondition() throws { try Mistakes.escapedTransactionInAMock() }
    @Test func savepoint() throws { try Mistakes.savepointOnAnEscapedTransaction() }
    @Test func passesAfter() throws { #expect(try Mistakes.correctUse() == 43) }
}
