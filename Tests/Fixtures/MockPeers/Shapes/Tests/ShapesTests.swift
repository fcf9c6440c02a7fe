// Ours: uses the mocks txkit writes for Shapes/Sources, in the scratch
// package MockPeerSuiteTests builds.
import Testing
import TransactionKit
import TransactionKitTesting
@testable import ShapesPeers

@Test func overloadsHaveTheirOwnStubs() {
    let mock = OverloadsMock()
    mock.fetchByName.returns(1)
    mock.fetchByID.returns(2)
    mock.valueByKeyStringReturningInt.returns(3)
    mock.valueByKeyStringReturningString.returns("s")
    mock.valueByKeyInt.returns("i")
    #expect(mock.fetch(byName: "a") == 1)
    #expect(mock.fetch(byID: 7) == 2)
    let number: Int = mock.value("k")
    let text: String = mock.value("k")
    #expect(number == 3 && text == "s" && mock.value(1) == "i")
    #expect(mock.fetchByID.calls == [7])
}

@Test func keywordsAndImplicitlyUnwrappedOptionals() {
    let mock = KeywordsMock()
    mock.lookup.stub { arguments in arguments.for + arguments.in }
    mock.default.stub { value in value.map(String.init) }
    #expect(mock.lookup(for: "a", in: "b") == "ab")
    #expect(mock.default(4) == "4")
}

@Test func selfSomeAndAny() {
    let mock = ExistentialsMock()
    mock.copyCall.returns(mock)
    mock.describe.stub { value in value.description }     // `some P` is recorded as `any P`
    mock.report.stub { error in error != nil }
    mock.store.returns(1)
    #expect(mock.copy() === mock)
    #expect(mock.describe(12) == "12")
    #expect(mock.report(Optional<CancellationError>.none) == false)
    #expect(mock.report(CancellationError()) && mock.report.calls.last??.localizedDescription != nil)
    #expect(mock.store("x") == 1)
}

@Test func nestedProtocolsAreMockedByTheirQualifiedName() {
    let mock: any Outer.Inner.Finder = FinderMock()
    (mock as! FinderMock).find.returns(Row(id: 1))
    #expect(mock.find(id: 1) == Row(id: 1))
}

@Test func associatedTypesMakeAGenericMock() {
    let mock = RepositoryMock<Row>()
    mock.item.stub { key in Row(id: key.count) }
    mock.save.returns()
    mock.save(Row(id: 1), for: "a")
    #expect(mock.item(for: "abc") == Row(id: 3))
    #expect(mock.save.calls.map(\.key) == ["a"])
}

@Test func staticsAndSubscripts() {
    RegistryMock.resetStaticStubs()
    RegistryMock.register.returns(true)
    RegistryMock.getShared.returns(5)
    #expect(RegistryMock.register("a") && RegistryMock.shared == 5)
    RegistryMock.resetStaticStubs()
    #expect(RegistryMock.register.callCount == 0)

    let mock = RegistryMock()
    mock.getSubscriptByIndex.stub { index in "row \(index)" }
    mock.setSubscriptByIndex.returns()
    mock.getSubscriptByName.returns(9)
    mock[3] = "x"
    #expect(mock[2] == "row 2" && mock[name: "n"] == 9)
    #expect(mock.setSubscriptByIndex.calls.map(\.newValue) == ["x"])
}

@Test func actorProtocols() async {
    let mock = CounterMock()
    mock.increment.stub { amount in amount + 1 }
    #expect(await mock.increment(by: 1) == 2)
}

@MainActor
@Test func globalActorProtocols() {
    let mock = ScreenMock()
    mock.setTitle.returns()
    mock.getTitle.returns("t")
    mock.show.returns()
    mock.title = "new"
    mock.show([Row(id: 1)])
    #expect(mock.title == "t" && mock.setTitle.calls == ["new"])
}

@Test func nonSendableValuesStayInTheTest() {
    let mock = NonSendableValuesMock()
    let context = Context()
    mock.use.stub { received in received.name = "used"; return received }
    mock.run.stub { _, completion in completion(3) }
    var received: Int?
    mock.run { received = $0 }
    #expect(mock.use(context) === context && context.name == "used" && received == 3)
}

@Test func transactionsAreCheckedNotRecorded() throws {
    let db = MockDB()
    let mock = TransactionsMock()
    mock.count.returns(2)
    mock.maybeCount.returns(1)
    mock.insert.returns()
    try db.write { tx in
        try mock.insert(Row(id: 1), tx)
        #expect(try mock.count(tx) == 2)
    }
    #expect(mock.maybeCount(nil) == 1)
    #expect(mock.insert.calls == [Row(id: 1)] && mock.count.callCount == 1)

    mock.enumerate.stub { _, block in try block(Row(id: 5)) }
    var rows: [Row] = []
    try db.read { tx in mock.enumerate(tx) { rows.append($0) } }
    #expect(rows == [Row(id: 5)] && mock.enumerate.callCount == 1)
}

@Test func asyncMembersTakingATransaction() async throws {
    let db = MockDB()
    let mock = TransactionsMock()
    mock.load.stub { id in Row(id: id) }
    let row = try await db.read { tx in try await mock.load(id: 3, tx) }
    #expect(row == Row(id: 3) && mock.load.calls == [3])
}

@Test func closuresReachTheStubAndInoutIsWrittenBack() throws {
    let mock = CallbacksMock()
    mock.enumerate.stub { _, block in
        block(Row(id: 1))
        block(Row(id: 2))
    }
    mock.normalize.stub { _, name in name.value = name.value.lowercased() }
    mock.decode.returns(42)
    var rows: [Row] = []
    mock.enumerate(conversationID: 7) { rows.append($0) }
    var name = "ABC"
    mock.normalize(&name)
    #expect(rows.map(\.id) == [1, 2] && name == "abc" && mock.enumerate.calls == [7])
    #expect(try mock.decode(Int.self, from: "42") == 42)
}

@Test func aStubOfTheWrongTypeFailsTheTestNamingTheMember() {
    let mock = CallbacksMock()
    mock.decode.returns("not a number")
    withKnownIssue {
        #expect(throws: MockTypeMismatchError.self) { try mock.decode(Int.self, from: "x") }
    } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("CallbacksMock.decode") }
            || "\(issue)".contains("decode")
    }
}

@Test func anUnstubbedNonThrowingMemberFailsTheTestAndTheRunGoesOn() {
    let mock = CallbacksMock()
    withKnownIssue {
        mock.rename("x")                                 // Void: returns
        #expect(mock.first(of: Int.self) == nil)         // optional: nil
    }
    #expect(mock.rename.callCount == 1)
}

@Test func inheritedRequirementsFromOtherFiles() {
    let mock = ChildMock()
    mock.grandparentMethodCall.returns("g")
    mock.parentMethod.stub { $0 * 2 }
    mock.getName.returns("n")
    #expect(mock.grandparentMethod() == "g" && mock.parentMethod(2) == 4 && mock.name == "n")
}

@Test func standardLibraryParents() {
    let first = SessionMock(), second = SessionMock()
    first.getDescription.returns("first")
    #expect(first == first && first != second && first.id != second.id)
    #expect(Set([first, first, second]).count == 2 && first.description == "first")
}
