import Testing
import TransactionKit
import TransactionKitTesting

/// The kinds of stubs `txkit mock` writes besides `MockMethod`, and what a
/// non-throwing member answers when it has no answer.
@Suite("MockMethod variants")
struct MockMethodVariantsTests {
    final class Box {
        var value = 0
    }

    struct Stopped: Error {}

    final class FinderMock {
        let rename = MockMethod<String, Void>()
        let title = MockMethod<Int, String?>()
        let enumerate = MockMethodWithClosures<Int, (Int) -> Void, Void>()
        let normalize = MockMethodWithClosures<String, MockInout<String>, Void>()
        let use = NonSendableMockMethod<Box, Box>()
        let decode = NonSendableMockMethod<String, Any>()

        func rename(_ name: String) { rename.callWithoutThrowing(name, in: self) }
        func title(id: Int) -> String? { title.callWithoutThrowing(id, in: self) }
        func enumerate(id: Int, block: (Int) -> Void) {
            withoutActuallyEscaping(block) { block in enumerate.callWithoutThrowing(id, closures: block, in: self) }
        }
        func normalize(_ name: inout String) {
            let box = MockInout(name)
            defer { name = box.value }
            normalize.callWithoutThrowing(name, closures: box, in: self)
        }
        func use(_ box: Box) -> Box { use.callWithoutThrowing(box, in: self) }
        func decode<T>(_ type: T.Type, from text: String) throws -> T {
            try mockCast(try decode.call(text, in: self), to: T.self, in: self)
        }
    }

    @Test func anUnstubbedNonThrowingMemberFailsTheTestAndAnswersItsDefault() {
        let mock = FinderMock()
        withKnownIssue {
            mock.rename("a")
            #expect(mock.title(id: 1) == nil)
        } matching: { issue in
            "\(issue)".contains("Unimplemented: FinderMock.rename") || "\(issue)".contains("Unimplemented: FinderMock.title")
        }
        #expect(mock.rename.calls == ["a"] && mock.title.calls == [1])
    }

    @Test func aThrowingStubOfANonThrowingMemberFailsTheTestAndTheRunGoesOn() {
        let mock = FinderMock()
        mock.title.fails(with: Stopped())
        withKnownIssue {
            #expect(mock.title(id: 1) == nil)
        } matching: { issue in
            "\(issue)".contains("cannot throw, but its stub threw")
        }
    }

    @Test func closuresReachTheStubAndAreNotRecorded() {
        let mock = FinderMock()
        mock.enumerate.stub { id, block in
            block(id)
            block(id + 1)
        }
        var seen: [Int] = []
        mock.enumerate(id: 4) { seen.append($0) }
        #expect(seen == [4, 5] && mock.enumerate.calls == [4])
    }

    @Test func inoutIsWrittenBack() {
        let mock = FinderMock()
        mock.normalize.stub { _, name in name.value = name.value.uppercased() }
        var name = "abc"
        mock.normalize(&name)
        #expect(name == "ABC" && mock.normalize.calls == ["abc"])
    }

    @Test func nonSendableValuesAreRecordedAndAnsweredInTheTestsIsolation() {
        let mock = FinderMock()
        let box = Box()
        mock.use.stub { received in received.value += 1; return received }
        #expect(mock.use(box) === box && box.value == 1 && mock.use.calls.first === box)
        mock.use.reset()
        #expect(mock.use.callCount == 0 && !mock.use.isStubbed)
    }

    @Test func theSendableAndNonSendableMethodsShareOneCore() throws {
        struct CoreMock {}
        let methods: [MockMethodCore<Int, Void, Int>] = [MockMethod<Int, Int>(), NonSendableMockMethod<Int, Int>()]
        for (answer, method) in methods.enumerated() {
            method.returns(answer)
            #expect(try method.call(5, in: CoreMock()) == answer)
            #expect(method.calls == [5] && method.callRecords.map(\.transactionID) == [nil])
            #expect(method.member.name == "CoreMock.theSendableAndNonSendableMethodsShareOneCore()")
        }
        let count = NonSendableMockMethod<Void, Int>()
        count.stub { 3 }
        #expect(try count.call(in: CoreMock()) == 3 && count.callWithoutThrowing(in: CoreMock()) == 3)
        #expect(count.callCount == 2)
    }

    @Test func aStubOfTheWrongTypeFailsTheTestNamingTheMember() throws {
        let mock = FinderMock()
        mock.decode.returns(42)
        #expect(try mock.decode(Int.self, from: "42") == 42)
        mock.decode.returns("forty-two")
        withKnownIssue {
            #expect(throws: MockTypeMismatchError.self) { try mock.decode(Int.self, from: "x") }
        } matching: { issue in
            "\(issue)".contains("FinderMock.decode") && "\(issue)".contains("String") && "\(issue)".contains("Int")
        }
    }

    @Test func defaultsExistForVoidAndOptionalsOnly() {
        #expect(MockFailureDefault.value(of: Void.self) != nil)
        #expect(MockFailureDefault.value(of: Int?.self) == .some(nil))
        #expect(MockFailureDefault.value(of: Int.self) == nil)
        #expect(MockFailureDefault.value(of: Any.self) == nil)
    }

    @Test func withoutADefaultTheProcessStopsWithAMessageNamingTheMember() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let size = MockMethod<Void, Int>()
            _ = size.callWithoutThrowing(in: "SizeMock")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("returns Int, which has no default answer"), "\(message)")
    }
}
