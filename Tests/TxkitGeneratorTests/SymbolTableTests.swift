#if Txkit
import Testing
import TxkitGenerator

/// The legacy type's members come from every declaration of it in the
/// tree, and generated code spells its nested types from outside.
@Suite("Symbol table")
struct SymbolTableTests {
    @Test func membersComeFromExtensionsIfBranchesSuperclassesAndProtocolExtensions() throws {
        let tree = try InlineTree([
            ("Legacy.swift", """
                struct LegacyTransaction {}
                class BaseFinder {
                    func baseFind(id: Int, transaction: LegacyTransaction) -> String? { nil }
                }
                protocol Fetching {}
                extension Fetching {
                    func fetchAll(transaction: LegacyTransaction) -> [Int] { [] }
                }
                final class Legacy: BaseFinder, Fetching {
                    #if DEBUG
                    func debugFind(transaction: LegacyTransaction) {}
                    #else
                    func debugFind(transaction: LegacyTransaction) {}
                    #endif
                }
                """),
            ("Legacy+More.swift", """
                extension Legacy {
                    func extraFind(transaction: LegacyTransaction) -> Int { 0 }
                }
                """),
            ("Consumer.swift", """
                final class C {
                    let legacy = Legacy()
                    func run(_ tx: LegacyTransaction) {
                        _ = legacy.baseFind(id: 1, transaction: tx)
                        _ = legacy.fetchAll(transaction: tx)
                        legacy.debugFind(transaction: tx)
                        _ = legacy.extraFind(transaction: tx)
                    }
                }
                """),
        ])
        #expect(try tree.requirements("C", "Legacy") == [
            "func baseFind(id: Int, _ tx: DBReadTransaction) throws -> String?",
            "func fetchAll(_ tx: DBReadTransaction) throws -> [Int]",
            "func debugFind(_ tx: DBReadTransaction) throws",
            "func extraFind(_ tx: DBReadTransaction) throws -> Int",
        ])
    }

    @Test func nestedTypesAreQualifiedInTheShimAndTheMock() throws {
        let tree = try InlineTree([
            ("Legacy.swift", """
                struct LegacyTransaction {}
                final class Legacy {
                    struct PreparedSendData {}
                    func prepare(transaction: LegacyTransaction) -> PreparedSendData { PreparedSendData() }
                    func send(_ data: [PreparedSendData], transaction: LegacyTransaction) {}
                }
                extension Legacy {
                    enum Outcome { case sent }
                    func outcome(of data: PreparedSendData, transaction: LegacyTransaction) -> Outcome? { nil }
                }
                """),
            ("Consumer.swift", """
                final class C {
                    let legacy = Legacy()
                    func run(_ tx: LegacyTransaction) {
                        let data = legacy.prepare(transaction: tx)
                        legacy.send([data], transaction: tx)
                        _ = legacy.outcome(of: data, transaction: tx)
                    }
                }
                """),
        ])
        #expect(try tree.requirements("C", "Legacy") == [
            "func prepare(_ tx: DBReadTransaction) throws -> Legacy.PreparedSendData",
            "func send(_ data: [Legacy.PreparedSendData], _ tx: DBReadTransaction) throws",
            "func outcome(of data: Legacy.PreparedSendData, _ tx: DBReadTransaction) throws -> Legacy.Outcome?",
        ])
        let mock = try #require(try tree.generator.shim(consumer: "C", legacy: "Legacy").files
            .first { $0.path.hasSuffix("C_LegacyMock.swift") }).contents
        #expect(mock.contains("Legacy.PreparedSendData"))
        #expect(!mock.contains(" PreparedSendData"))
    }
}
#endif
