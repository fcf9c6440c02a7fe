import Testing
import TransactionKit
import TransactionKitTesting
@testable import CuckooPeers

// Uses of the mocks of Cuckoo's generic protocols, which MockPeerSuiteTests
// cannot write a literal for: each stubs a member, calls it, and checks
// what the mock recorded. Written for this repository.

private final class Box {}

@Test func aGenericFunctionRecordsItsArgumentWithItsType() {
    let mock = GenericFunctionProtocolMock()
    mock.method.returns()
    mock.method(param: "abc")
    mock.method(param: Substring("def"))
    #expect(mock.method.calls.first as? String == "abc")
    #expect(mock.method.calls.last as? Substring == "def")
}

@Test func aProtocolWithAssociatedTypesIsMockedWithTypeArguments() async {
    let mock = GenericProtocolMock<Box, Int>()
    mock.callSomeV.returns(3)
    #expect(mock.callSomeV(theV: 9) == 3)
    #expect(mock.callSomeV.calls == [9])
    let box = Box()
    mock.computeAsync.returns((box, 4))
    let (returned, value) = await mock.computeAsync(classy: Box(), value: 1)
    #expect(returned === box && value == 4)
}

@Test func primaryAssociatedTypesAreTheMocksGenericArguments() async {
    let connecting = PrimaryAssociatedTypeProtocolMock<Int>()
    connecting.connectCall.returns(5)
    #expect(connecting.connect() == 5)
    let converting = MixedPrimaryAssociatedTypeProtocolMock<Int, String>()
    converting.convertToOutput.returns("out")
    let output = await converting.convertToOutput(value: 1.5, input: 7, convert: { _, _ in nil })
    #expect(output == "out")
    #expect(converting.convertToOutput.calls.first?.value as? Double == 1.5)
    #expect(converting.convertToOutput.calls.first?.input == 7)
}
