#if Txkit
import Testing
import TxkitGenerator

/// What `txkit mock` writes for each protocol shape, as text (the peer
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
    /// A parent named through a type alias of the sources
    /// (`MessageJSON: JSONCodable, Hashable`, where `typealias JSONCodable =
    /// JSONEncodable & JSONDecodable`) stands for what the alias names: the
    /// mock implements the requirements of both protocols.
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

    @Test func overloadsByResultEffectsOrWhereClauseGetTheirOwnStubsAndMembers() throws {
        let mock = try Self.mock("Loader", [("L.swift", """
            protocol Loader {
                func load() -> Int
                func load() -> String
                func fooFunc()
                func fooFunc() async throws
                func display() -> Int
                func display() async -> Int
                func convert<T>(_ value: T) -> T where T: Equatable
                func convert<T>(_ value: T) -> T where T: Comparable
            }
            """)])
        for line in [
            "let loadReturningInt = MockMethod<Void, Int>()", "let loadReturningString = MockMethod<Void, String>()",
            "let fooFuncReturningVoid = MockMethod<Void, Void>()",
            "let fooFuncReturningVoidThrowing = MockMethod<Void, Void>()",
            "let displayReturningInt = MockMethod<Void, Int>()", "let displayReturningIntAsync = MockMethod<Void, Int>()",
            "let convertByValueTReturningTWhereTEquatable = NonSendableMockMethod<Any, Any>()",
            "let convertByValueTReturningTWhereTComparable = NonSendableMockMethod<Any, Any>()",
            "func fooFunc() {", "func fooFunc() async throws {", "func display() -> Int {", "func display() async -> Int {",
            "func convert<T>(_ value: T) -> T where T: Equatable {", "func convert<T>(_ value: T) -> T where T: Comparable {",
        ] {
            #expect(mock.contains(line), "\(line)\n\(mock)")
        }
        // The same declaration in two protocols is one member; the one that
        // does not throw implements both.
        let inherited = try Self.mock("Child", [("C.swift", """
            protocol Parent { func close() throws }
            protocol Child: Parent { func close() }
            """)])
        #expect(inherited.components(separatedBy: "func close()").count == 2, "\(inherited)")
        #expect(!inherited.contains("func close() throws"))
    }

    @Test func aStubNeverTakesTheNameOfAPropertyOrOfAMethodWithoutArguments() throws {
        let mock = try Self.mock("Speaker", [("S.swift", """
            protocol Speaker {
                var talk: String { get }
                func talk() async
                var speak: String { get }
                func speak(_ words: Int)
                func load()
                func load(_ id: Int)
            }
            """)])
        for line in [
            "let getTalk = MockMethod<Void, String>()", "let talkCall = MockMethod<Void, Void>()",
            "let getSpeak = MockMethod<Void, String>()", "let speakByWords = MockMethod<Int, Void>()",
            "let loadCall = MockMethod<Void, Void>()", "let loadByID = MockMethod<Int, Void>()",
        ] {
            #expect(mock.contains(line), "\(line)\n\(mock)")
        }
    }

    @Test func nonisolatedMembersOfIsolatedProtocolsStayNonisolated() throws {
        let files = [("P.swift", """
            protocol Store: Actor {
                func save(_ name: String) async -> Bool
                var count: Int { get }
                nonisolated func identifier() -> String
            }
            final class Context {}
            @MainActor protocol Screen: AnyObject {
                var title: String { get }
                nonisolated func identifier() -> String
                nonisolated func context() -> Context
            }
            """)]
        let store = try Self.mock("Store", files)
        #expect(store.contains("actor StoreMock: Store {"))
        #expect(store.contains("    nonisolated func identifier() -> String {"), "\(store)")
        #expect(store.contains("    func save(_ name: String) async -> Bool {"))
        let screen = try Self.mock("Screen", files)
        #expect(screen.contains("    nonisolated func identifier() -> String {"), "\(screen)")
        // A stub that is not Sendable, reached from a nonisolated member.
        #expect(screen.contains("nonisolated(unsafe) let contextCall = NonSendableMockMethod<Void, Context>()"), "\(screen)")
        #expect(screen.contains("    let getTitle = MockMethod<Void, String>()"))
    }

    @Test func compositionsAreSendableOnlyWhenOnePartIs() throws {
        let mock = try Self.mock("Cache", [("C.swift", """
            protocol Keyed: Sendable {}
            typealias Model = Codable & Hashable
            protocol Cache {
                func store(_ value: any Codable & Hashable) -> Int
                func bare(_ value: Codable & Hashable) -> Int
                func keep(_ value: some Codable & Hashable)
                func model(_ value: Model) -> Bool
                func made() -> (any Codable & Hashable)?
                func shared(_ value: any Codable & Sendable) -> Int
                func keyed(_ value: any Keyed & Hashable) -> Int
            }
            """)])
        for line in [
            "let store = NonSendableMockMethod<any Codable & Hashable, Int>()",
            "let bare = NonSendableMockMethod<Codable & Hashable, Int>()",
            "let keep = NonSendableMockMethod<any Codable & Hashable, Void>()",
            "let model = NonSendableMockMethod<Model, Bool>()",
            "let madeCall = NonSendableMockMethod<Void, (any Codable & Hashable)?>()",
            "let shared = MockMethod<any Codable & Sendable, Int>()",
            "let keyed = MockMethod<any Keyed & Hashable, Int>()",
        ] {
            #expect(mock.contains(line), "\(line)\n\(mock)")
        }
    }

    /// GRDB declares `typealias GRDBSendableMetatype = SendableMetatype`
    /// (`= Any` for older compilers), and its protocols inherit it.
    @Test func aParentThatIsATypeAliasOfAnyOrOfSendableMetatypeIsReadThrough() throws {
        let files = [("G.swift", """
            #if compiler(>=6.2)
            public typealias GRDBSendableMetatype = SendableMetatype
            #else
            public typealias GRDBSendableMetatype = Any
            #endif
            typealias Anything = Any
            public protocol TableRecord: GRDBSendableMetatype { static var databaseTableName: String { get } }
            protocol Plain: Anything { func run() }
            """)]
        #expect(try Self.mock("TableRecord", files).contains("static var databaseTableName: String {"))
        #expect(try Self.mock("Plain", files).contains("func run() {"))
    }

    @Test func anExcludedImportThatAMembersTypeNeedsIsImported() throws {
        let files = [
            ("TagFinder.swift", """
                import Foundation
                import GRDB

                struct Tag: Sendable {}
                protocol TagFinder {
                    func tags(noteId: Int64, db: Database) throws -> [Tag]
                }
                protocol TagCounter {
                    func count(noteId: Int64, since: Date) -> Int
                }
                """),
            ("Other.swift", """
                import GRDB
                import Vendor

                protocol Remote {
                    func fetch(_ request: VendorRequest) -> Int
                }
                """),
        ]
        let finder = try Self.mock("TagFinder", files)
        #expect(finder.contains("import GRDB\n"), "\(finder)")
        #expect(finder.contains("MockMethod<(noteId: Int64, db: Database), [Tag]>"))
        // Names only Foundation declares: GRDB stays out.
        let counter = try Self.mock("TagCounter", files)
        #expect(!counter.contains("import GRDB"), "\(counter)")
        #expect(counter.contains("import Foundation"))
        // A name from no module txkit knows: every excluded import of the file.
        #expect(try Self.mock("Remote", files).contains("import GRDB\n"))
    }
}
#endif
