import Testing
import TransactionKit
import TransactionKitTesting
@testable import SourceryPeers

// Uses of the mocks of Sourcery's protocols whose members take or return
// values that MockPeerSuiteTests cannot write a literal for (variadics,
// closures, existentials, `Any`, generics, associated types): each stubs a
// member, calls it, and checks what the mock recorded. Written for this
// repository.

private struct Stub: StubProtocol, StubWithSomeNameProtocol {}

@Test func exampleVarargRecordsItsVariadicArguments() {
    let mock = ExampleVarargMock()
    mock.string.returns("formatted")
    #expect(mock.string(key: "greeting", args: 1, 2.5) == "formatted")
    #expect(mock.string.calls.first?.key == "greeting")
    #expect(mock.string.calls.first?.args.count == 2)
}

@Test func exampleVarargTwoRecordsItsExistentialVariadics() {
    let mock = ExampleVarargTwoMock()
    mock.toto.returns()
    mock.toto(args: Stub(), Stub(), Stub())
    #expect(mock.toto.calls.first?.count == 3)
}

@Test func exampleVarargThreeHandsItsClosureToTheStub() {
    let mock = ExampleVarargThreeMock()
    let answered = Locked<Int?>(nil)
    mock.toto.stub { _, arg in
        let result = arg("rows", [1, 2], [3])
        answered.setValue(result.count)
    }
    mock.toto(arg: { name, collections in [name] + collections.map { "\($0.count)" } })
    #expect(answered.value == 3)
    #expect(mock.toto.callCount == 1)
}

@Test func exampleVarargFourHandsItsClosureToTheStub() {
    let mock = ExampleVarargFourMock()
    mock.toto.stub { _, arg in arg("done", [1]) }
    let heard = Locked<[String]>([])
    mock.toto(arg: { name, collections in heard.withValue { $0.append("\(name) \(collections.count)") } })
    #expect(heard.value == ["done 1"])
}

@Test func multiExistentialClosureIsCalledByTheStub() {
    let mock = MultiExistentialArgumentsClosureProtocolMock()
    let returned = Locked<Bool?>(nil)
    mock.execute.stub { _, completion in returned.setValue(completion(nil, Stub()) != nil) }
    mock.execute(completion: { first, second in first ?? second })
    #expect(returned.value == true)
}

@Test func genericResultTypesAreRecordedAndReturnedTyped() {
    struct Failure: Error {}
    let mock = ProtocolWithMethodWithGenericParametersMock()
    mock.execute.returns(.success("ok"))
    let result = mock.execute(param: .failure(Failure()))
    #expect((try? result.get()) == "ok")
    #expect(mock.execute.calls.count == 1)
}

@Test func sendableProtocolsReturnTheirAnyValue() {
    let mock = SendableProtocolMock()
    mock.getValue.returns(42)
    #expect(mock.value as? Int == 42)
    let sendable = SendableSendableProtocolMock()
    sendable.getValue.returns("text")
    #expect(sendable.value as? String == "text")
}

@Test func someParametersAreRecordedAsTheirExistentials() async {
    let mock = SomeProtocolMock()
    mock.b.returns("b")
    #expect(await mock.b(x: Stub?.none, y: Stub(), z: Stub()) == "b")
    #expect(mock.b.calls.first?.x == nil)
    #expect(mock.b.calls.first?.y is Stub)
    mock.d.returns()
    mock.d(Stub())
    #expect(mock.d.calls.first.flatMap { $0 } is Stub)
}

@Test func associatedTypesBecomeTheMocksGenericArguments() {
    let mock = TestProtocolMock<[String], [String], [Int], [Int]>()
    mock.getValue5Call.returns([5, 6])
    mock.getValue2Call.returns(2)
    #expect(mock.getValue5() == [5, 6])
    #expect(mock.getValue2() == 2)
    #expect(mock.getValue5Call.callCount == 1)
}

@Test func inoutParametersAreWrittenBackFromTheStub() {
    let mock = ProtocolWithMethodWithInoutParameterMock()
    mock.executeByParamBar.stub { arguments, param in param.value = "\(param.value) × \(arguments.bar)" }
    var text = "row"
    mock.execute(param: &text, bar: 3)
    #expect(text == "row × 3")
    #expect(mock.executeByParamBar.calls.first?.param == "row")
}
