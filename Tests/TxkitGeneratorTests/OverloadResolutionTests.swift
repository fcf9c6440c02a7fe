#if Txkit
import Testing
import TxkitGenerator

/// Overloads are told apart as Swift tells them apart, where the source
/// says enough, so that nobody renames a legacy member to get a shim.
@Suite("Overload resolution")
struct OverloadResolutionTests {
    static let legacy = """
        struct LegacyTransaction {}
        enum Order { case newest, oldest }
        enum Filter { case unread, all }
        class Message {}
        final class Thread {}
        final class Legacy {
            init() {}
            func member(id: Int, transaction: LegacyTransaction) -> String? { nil }
            func member(id: String, includeDeleted: Bool = false, transaction: LegacyTransaction) -> String? { nil }
            func list(order: Order, transaction: LegacyTransaction) -> [Int] { [] }
            func list(order: Filter, transaction: LegacyTransaction) -> [Int] { [] }
            func save(_ message: Message, transaction: LegacyTransaction) {}
            func save(_ thread: Thread, transaction: LegacyTransaction) {}
            func page(id: Int, transaction: LegacyTransaction) -> [Int] { [] }
            func page(id: Int, limit: Int = 10, transaction: LegacyTransaction) -> [Int] { [] }
            func search(text: String, limit: Int = 10, transaction: LegacyTransaction) -> [Int] { [] }
            func search(text: String, offset: Int = 0, transaction: LegacyTransaction) -> [Int] { [] }
        }
        """

    static func requirements(_ body: String) throws -> [String] {
        let tree = try InlineTree([("Legacy.swift", legacy), ("Consumer.swift", """
            final class C {
                let legacy = Legacy()
                func run(_ tx: LegacyTransaction) {
            \(body)
                }
            }
            """)])
        return try tree.requirements("C", "Legacy")
    }

    /// The fuzzer's finding (seed 4242, programs 17 and 80): overloads that
    /// differ only by argument label record the same parameter names and
    /// types, and their stubs were both `nameByIDInt64`.
    @Test func overloadsThatDifferOnlyByLabelGetDistinctStubs() throws {
        let tree = try InlineTree([("Legacy.swift", """
            struct LegacyTransaction {}
            final class Finder {
                init() {}
                func name(id: Int64, transaction: LegacyTransaction) -> String? { nil }
                func name(forID id: Int64, transaction: LegacyTransaction) -> String? { nil }
            }
            """), ("Consumer.swift", """
            final class C {
                let finder = Finder()
                func run(_ tx: LegacyTransaction) {
                    _ = finder.name(id: 1, transaction: tx)
                    _ = finder.name(forID: 2, transaction: tx)
                }
            }
            """)])
        let files = try tree.generator.shim(consumer: "C", legacy: "Finder").files
        let mock = try #require(files.first { $0.path.hasSuffix("C_FinderMock.swift") }).contents
        let stubs = mock.split(separator: "\n").filter { $0.contains("= MockMethod") }
            .map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ")[1] }
        #expect(stubs.count == 2)
        #expect(Set(stubs).count == 2, "\(stubs)")
    }

    @Test func aLiteralPicksTheOverloadItCanBuild() throws {
        #expect(try Self.requirements("_ = legacy.member(id: 5, transaction: tx)") == [
            "func member(id: Int, _ tx: DBReadTransaction) throws -> String?",
        ])
        #expect(try Self.requirements(#"_ = legacy.member(id: "x", transaction: tx)"#) == [
            "func member(id: String, includeDeleted: Bool, _ tx: DBReadTransaction) throws -> String?",
        ])
    }

    @Test func aTypedLocalPicksItsOverload() throws {
        #expect(try Self.requirements("""
                let key: String = "x"
                _ = legacy.member(id: key, transaction: tx)
            """) == ["func member(id: String, includeDeleted: Bool, _ tx: DBReadTransaction) throws -> String?"])
    }

    @Test func anEnumCasePicksTheEnumThatDeclaresIt() throws {
        #expect(try Self.requirements("_ = legacy.list(order: .unread, transaction: tx)") == [
            "func list(order: Filter, _ tx: DBReadTransaction) throws -> [Int]",
        ])
    }

    @Test func aValueOfATypeInTheTreePicksItsOverload() throws {
        #expect(try Self.requirements("""
                let thread = Thread()
                legacy.save(thread, transaction: tx)
            """) == ["func save(_ thread: Thread, _ tx: DBReadTransaction) throws"])
    }

    @Test func theOverloadThatLeavesNoDefaultOutWins() throws {
        #expect(try Self.requirements("_ = legacy.page(id: 1, transaction: tx)") == [
            "func page(id: Int, _ tx: DBReadTransaction) throws -> [Int]",
        ])
        #expect(try Self.requirements("_ = legacy.page(id: 1, limit: 5, transaction: tx)") == [
            "func page(id: Int, limit: Int, _ tx: DBReadTransaction) throws -> [Int]",
        ])
    }

    @Test func aTrulyAmbiguousCallListsTheCandidatesWithTheirPlace() throws {
        let error = #expect(throws: GeneratorError.self) {
            try Self.requirements(#"_ = legacy.search(text: "a", transaction: tx)"#)
        }
        let message = try #require(error).description
        #expect(message.contains("Consumer.swift:4:"))
        #expect(message.contains("Legacy.search(text:limit:transaction:) at Legacy.swift:16"))
        #expect(message.contains("Legacy.search(text:offset:transaction:) at Legacy.swift:17"))
    }
}
#endif
