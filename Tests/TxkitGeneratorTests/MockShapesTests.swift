#if Txkit
import Testing
import TxkitGenerator

/// What `txkit mock` writes for the shapes of issue 39, as text (the peer
/// suite compiles and runs them).
@Suite("txkit mock shapes")
struct MockShapesTests {
    static func mock(_ protocolName: String, _ files: [(String, String)]) throws -> String {
        try InlineTree(files).generator.mock(protocol: protocolName).contents
    }

    @Test func overloadsAreNamedByLabelsThenTypesThenResult() throws {
        let mock = try Self.mock("Overloads", [("Overloads.swift", """
            protocol Overloads {
                func fetch(byName name: String) -> Int
                func fetch(byID id: Int) -> Int
                func value(_ key: String) -> Int
                func value(_ key: String) -> String
                func value(_ key: Int) -> String
                func size() -> Int
            }
            """)])
        for stub in [
            "let fetchByName = MockMethod<String, Int>()", "let fetchByID = MockMethod<Int, Int>()",
            "let valueByKeyStringReturningInt = MockMethod<String, Int>()",
            "let valueByKeyStringReturningString = MockMethod<String, String>()",
            "let valueByKeyInt = MockMethod<Int, String>()", "let sizeCall = MockMethod<Void, Int>()",
        ] {
            #expect(mock.contains(stub), "\(stub)\n\(mock)")
        }
        // Deterministic: the same text twice.
        #expect(try Self.mock("Overloads", [("Overloads.swift", "protocol Overloads { func a(_ x: Int); func a(_ x: String) }")])
            == Self.mock("Overloads", [("Overloads.swift", "protocol Overloads { func a(_ x: Int); func a(_ x: String) }")]))
    }

    @Test func keywordsAreEscapedAndImplicitlyUnwrappedOptionalsRecordedAsOptionals() throws {
        let mock = try Self.mock("Keywords", [("K.swift", """
            protocol Keywords {
                func lookup(for: String, in: String) -> String
                func `default`(_ value: Int!) -> String!
            }
            """)])
        #expect(mock.contains("let lookup = MockMethod<(`for`: String, `in`: String), String>()"))
        #expect(mock.contains("lookup.callWithoutThrowing((`for`, `in`), in: self)"))
        #expect(mock.contains("let `default` = MockMethod<Int?, String?>()"))
    }

    @Test func selfSomeAnyAndNestedProtocols() throws {
        let mock = try Self.mock("Outer.Inner.Finder", [("F.swift", """
            enum Outer {
                enum Inner {
                    protocol Finder {
                        func copy() -> Self
                        func report(_ error: (some Error)?) -> Bool
                        func store(_ value: any Sendable) -> Int
                        func describe(_ value: some CustomStringConvertible) -> String
                    }
                }
            }
            """)])
        #expect(mock.contains("final class FinderMock: Outer.Inner.Finder {"))
        #expect(mock.contains("func copy() -> FinderMock {"))
        #expect(mock.contains("func report(_ error: (some Error)?) -> Bool {"))
        #expect(mock.contains("let report = MockMethod<(any Error)?, Bool>()"), "some P is recorded as any P")
        #expect(mock.contains("let store = MockMethod<any Sendable, Int>()"))
        #expect(mock.contains("let describe = NonSendableMockMethod<any CustomStringConvertible, String>()"),
                "an existential of another module's protocol is not assumed Sendable")
    }

    @Test func inheritedRequirementsComeFromOtherFiles() throws {
        let mock = try Self.mock("Child", [
            ("Parent.swift", "protocol Parent { var name: String { get } }\nprotocol Grandparent { func old() -> Int }"),
            ("Child.swift", "protocol Middle: Grandparent {}\nprotocol Child: Parent, Middle { func young() }"),
        ])
        #expect(mock.contains("var name: String { getName.callWithoutThrowing(in: self) }"))
        #expect(mock.contains("func old() -> Int {"))
        #expect(mock.contains("func young() {"))
    }

    @Test func associatedTypesStaticsSubscriptsActorsAndGlobalActors() throws {
        let files = [("P.swift", """
            protocol Repository {
                associatedtype Item: Equatable
                associatedtype Key = String
                func item(for key: Key) -> Item?
            }
            protocol Registry {
                static func register(_ name: String) -> Bool
                subscript(name name: String) -> Int? { get set }
            }
            protocol Counter: Actor { func increment() -> Int }
            @MainActor protocol Screen { func show() }
            """)]
        let repository = try Self.mock("Repository", files)
        #expect(repository.contains("final class RepositoryMock<Item: Equatable>: Repository {"))
        #expect(repository.contains("typealias Key = String"))
        let registry = try Self.mock("Registry", files)
        #expect(registry.contains("static let register = MockMethod<String, Bool>()"))
        #expect(registry.contains("static func resetStaticStubs() {"))
        #expect(registry.contains("subscript(name name: String) -> Int? {"))
        #expect(registry.contains("let setSubscript = MockMethod<(name: String, newValue: Int?), Void>()"))
        #expect(try Self.mock("Counter", files).contains("actor CounterMock: Counter {\n    nonisolated let incrementCall"))
        #expect(try Self.mock("Screen", files).contains("@MainActor\nfinal class ScreenMock: Screen {"))
    }

    @Test func transactionsAreCheckedNotRecordedAndClosuresReachTheStub() throws {
        let mock = try Self.mock("Finder", [("F.swift", """
            import TransactionKit
            final class Context {}
            protocol Finder {
                func maybeCount(_ tx: DBReadTransaction?) -> Int
                func enumerate(id: Int, _ tx: DBReadTransaction, block: (Int) -> Void) throws
                func normalize(_ name: inout String)
                func use(_ context: Context) -> Context
            }
            """)])
        #expect(mock.contains("let maybeCount = MockMethod<Void, Int>()"))
        #expect(mock.contains("maybeCount.callWithoutThrowing(tx, in: self)"))
        #expect(mock.contains("let enumerate = MockMethodWithClosures<Int, (Int) -> Void, Void>()"))
        #expect(mock.contains("withoutActuallyEscaping(block) { block in"))
        #expect(mock.contains("let normalize = MockMethodWithClosures<String, MockInout<String>, Void>()"))
        #expect(mock.contains("defer { name = nameBox.value }"))
        #expect(mock.contains("let use = NonSendableMockMethod<Context, Context>()"))
        #expect(mock.contains("final class FinderMock: Finder {"), "not Sendable: Context is not")
    }

    @Test func standardLibraryParentsAreImplementedByIdentity() throws {
        let mock = try Self.mock("Session", [("S.swift", "protocol Session: Hashable, Identifiable, CustomStringConvertible {}")])
        #expect(mock.contains("static func == (lhs: SessionMock, rhs: SessionMock) -> Bool {"))
        #expect(mock.contains("hasher.combine(ObjectIdentifier(self))"))
        #expect(mock.contains("var id: ObjectIdentifier { ObjectIdentifier(self) }"))
        #expect(mock.contains("var description: String { getDescription.callWithoutThrowing(in: self) }"))
    }

    @Test func aProtocolTxkitCannotMockIsRefusedWithThePlaceAndNothingIsWritten() throws {
        let tree = try InlineTree([("P.swift", "import Foundation\n\nprotocol Model: Codable {\n    func save()\n}\n")])
        let error = try #require(throws: GeneratorError.self) { try tree.generator.mock(protocol: "Model") }
        #expect(error.description.contains("P.swift:3: it inherits from Codable, which is not declared in the sources"))
        #expect(error.description.contains("nothing was written"))
    }
    /// Found on EntropyKit's `MessageJSON: JSONCodable, Hashable`, where
    /// `typealias JSONCodable = JSONEncodable & JSONDecodable`: the mock was
    /// refused over `JSONCodable` as if the sources did not declare it.
    @Test func aParentNamedThroughATypeAliasOfTheSourcesIsReadThroughIt() throws {
        let files = [
            ("Aliases.swift", "typealias Codec = Encoding & Decoding\ntypealias Both = Codec\n"),
            ("P.swift", """
                protocol Encoding { func encoded() -> String }
                protocol Decoding { func decode(_ text: String) -> Int }
                protocol Message: Both, Hashable {
                    var body: String { get }
                }
                """),
        ]
        let mock = try Self.mock("Message", files)
        #expect(mock.contains("func encoded() -> String"))
        #expect(mock.contains("func decode(_ text: String) -> Int"))
        #expect(mock.contains("var body: String"))
        // An alias of something the sources do not declare is still refused, by its real name.
        let tree = try InlineTree([
            ("A.swift", "typealias JSONCodable = JSONEncodable & Decodable\nprotocol JSONEncodable: ParameterEncoding {}\n"),
            ("P.swift", "protocol MessageJSON: JSONCodable {\n    var body: String { get }\n}\n"),
        ])
        let error = try #require(throws: GeneratorError.self) { try tree.generator.mock(protocol: "MessageJSON") }
        #expect(error.description.contains("it inherits from ParameterEncoding, which is not declared in the sources"), "\(error)")
        #expect(!error.description.contains("JSONCodable,"))
    }
}
#endif

