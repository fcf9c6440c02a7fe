#if Txkit
import Testing
import TxkitGenerator

/// A legacy transaction parameter becomes the TransactionKit transaction in
/// every form a legacy signature gives it, GRDB's `Database` included.
@Suite("Legacy transaction parameters")
struct LegacyTransactionParameterTests {
    static let legacy = """
        import GRDB
        final class Legacy {
            init() {}
            func optionalDefaulted(id: Int, _ db: Database? = nil) -> Int { 0 }
            func labelled(in db: Database) {}
            func qualified(db: GRDB.Database) -> String { "" }
            static func implicitlyUnwrapped(_ db: Database!) {}
        }
        """

    static func tree(_ consumer: String) throws -> InlineTree {
        try InlineTree(
            [("Legacy.swift", legacy), ("Consumer.swift", consumer)],
            transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
    }

    @Test func everyFormIsTranslated() throws {
        let tree = try Self.tree("""
            import GRDB
            final class C {
                let legacy = Legacy()
                func run(_ db: Database) {
                    _ = legacy.optionalDefaulted(id: 1, db)
                    legacy.labelled(in: db)
                    _ = legacy.qualified(db: db)
                    Legacy.implicitlyUnwrapped(db)
                }
            }
            """)
        #expect(try tree.requirements("C", "Legacy") == [
            "func optionalDefaulted(id: Int, _ tx: DBReadTransaction) throws -> Int",
            "func labelled(_ tx: DBReadTransaction) throws",
            "func qualified(_ tx: DBReadTransaction) throws -> String",
            "func implicitlyUnwrapped(_ tx: DBReadTransaction) throws",
        ])
        let wrapper = try tree.wrapper("C", "Legacy")
        #expect(wrapper.contains("wrapped.optionalDefaulted(id: id, try SQLiteDB.shimOnlyBridge(tx))"))
        #expect(wrapper.contains("wrapped.labelled(in: try SQLiteDB.shimOnlyBridge(tx))"))
        #expect(wrapper.contains("wrapped.qualified(db: try SQLiteDB.shimOnlyBridge(tx))"))
        #expect(wrapper.contains("Legacy.implicitlyUnwrapped(try SQLiteDB.shimOnlyBridge(tx))"))
    }

    @Test func aCallThatLeavesTheDefaultedTransactionOutIsRefusedWithThePlace() throws {
        let tree = try Self.tree("""
            final class C {
                let legacy = Legacy()
                func run() {
                    _ = legacy.optionalDefaulted(id: 1)
                }
            }
            """)
        let error = #expect(throws: GeneratorError.self) { try tree.generator.shim(consumer: "C", legacy: "Legacy").files }
        let message = try #require(error).description
        #expect(message.contains("Consumer.swift:4:"))
        #expect(message.contains("leaves out the legacy transaction"))
    }
}
#endif
