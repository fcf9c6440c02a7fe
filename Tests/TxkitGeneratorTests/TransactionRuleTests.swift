#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// Read or write comes from the source: each rule of `txkit shim` decides
/// one member here, and the shim says which rule did.
@Suite("shim: read or write")
struct AccessRuleTests {
    static let legacy = """
        import GRDB

        struct LegacyTransaction { let database: Database }
        final class Store: Sendable {
            init() {}
            /// Renames an item.
            func rename(id: Int64, transaction: LegacyTransaction) throws {
                try transaction.database.execute(sql: "UPDATE item SET name = 'x' WHERE id = ?", arguments: [id])
            }
            func item(id: Int64, transaction: LegacyTransaction) throws -> String? {
                try String.fetchOne(transaction.database, sql: "SELECT name FROM item WHERE id = ?", arguments: [id])
            }
            func keep(_ record: Record, transaction: LegacyTransaction) throws {
                let db = transaction.database
                try record.save(db)
            }
            func retire(id: Int64, transaction: LegacyTransaction) throws {
                try retireNow(id: id, transaction: transaction)
            }
            private func retireNow(id: Int64, transaction: LegacyTransaction) throws {
                try rename(id: id, transaction: transaction)
            }
            func label(transaction: LegacyTransaction) -> String { "Update later, delete from the list" }
            func refresh(id: Int64, transaction: LegacyTransaction) throws { try Helper.refresh(id, transaction) }
            func purgeCache(transaction: LegacyTransaction) throws { try Helper.purge(transaction) }
            func peek(transaction: LegacyTransaction) throws -> Int { try Helper.peek(transaction) }
            func count(transaction: LegacyTransaction) throws -> Int { try Helper.count(transaction) }
        }
        """

    static let consumer = """
        final class C {
            let store = Store()
            init() {}
            func write(_ tx: DBWriteTransaction, record: Record) throws {
                let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                try store.rename(id: 1, transaction: legacy)
                _ = try store.item(id: 1, transaction: legacy)
                try store.keep(record, transaction: legacy)
                try store.retire(id: 1, transaction: legacy)
                try store.refresh(id: 1, transaction: legacy)
            }
            func read(_ tx: DBReadTransaction) throws -> String {
                let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                return store.label(transaction: legacy) + "\\(try store.count(transaction: legacy))"
            }
            func unknown(_ legacy: LegacyTransaction) throws -> Int {
                try store.purgeCache(transaction: legacy)
                return try store.peek(transaction: legacy)
            }
        }
        """

    /// The shim's text for `configuration`.
    static func shim(
        configuration: GeneratorConfiguration = .defaults, legacy: String = legacy, consumer: String = consumer
    ) throws -> String {
        let generator = try Generator(
            configuration: configuration,
            sources: SourceSet(sources: [("Legacy.swift", legacy), ("Consumer.swift", consumer)]))
        let files = try generator.shim(consumer: "C", legacy: "Store").files
        return try #require(files.first { $0.path.hasSuffix("C_StoreShim.swift") }).contents
    }

    /// The requirement that declares `name`, and the doc line just above it.
    static func requirement(_ name: String, in shim: String) throws -> (doc: String, declaration: String) {
        let lines = shim.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let index = try #require(lines.firstIndex { $0.hasPrefix("func \(name)(") }, "no \(name) in:\n\(shim)")
        return (lines[index - 1], lines[index])
    }

    @Test func theBodyDecidesFromItsSQL() throws {
        let (doc, declaration) = try Self.requirement("rename", in: Self.shim())
        #expect(doc == "/// Write: its body executes UPDATE (rule: body)")
        #expect(declaration.hasSuffix("(id: Int64, _ tx: DBWriteTransaction) throws"))
    }

    @Test func theBodyDecidesFromAGRDBWriteCallThroughALocal() throws {
        let (doc, declaration) = try Self.requirement("keep", in: Self.shim())
        #expect(doc == "/// Write: its body calls save(…) on its transaction (rule: body)")
        #expect(declaration.contains("_ tx: DBWriteTransaction"))
    }

    @Test func aBodyThatOnlyFetchesIsARead() throws {
        // Called inside a write transaction, yet its body only reads.
        let (doc, declaration) = try Self.requirement("item", in: Self.shim())
        #expect(doc == "/// Read: its body only reads (fetchOne(…)) (rule: body)")
        #expect(declaration.contains("_ tx: DBReadTransaction"))
    }

    @Test func writingSQLIsToldFromProse() {
        let writes = [
            "INSERT INTO item (name) VALUES (?)", "insert or replace into item VALUES (?)", "REPLACE INTO t VALUES (1)",
            "\n    DELETE FROM item WHERE id = ?", "UPDATE item SET name = ?", "update or ignore item set x = 1",
            "CREATE TABLE t (id)", "DROP INDEX IF EXISTS i", "ALTER TABLE t ADD COLUMN c",
        ]
        for sql in writes {
            #expect(BodyScanner.writingStatement(sql) != nil, "\(sql)")
        }
        for text in ["SELECT * FROM item", "Update failed", "Delete this message?", "Create an account", "insert", ""] {
            #expect(BodyScanner.writingStatement(text) == nil, "\(text)")
        }
    }

    @Test func aBodyThatNeverTouchesItsTransactionIsARead() throws {
        let (doc, _) = try Self.requirement("label", in: Self.shim())
        #expect(doc == "/// Read: its body never uses its transaction (rule: body)")
    }

    @Test func theMembersItCallsDecideTransitively() throws {
        let (doc, declaration) = try Self.requirement("retire", in: Self.shim())
        #expect(doc == "/// Write: it calls Store.rename(id:transaction:), whose body executes UPDATE (rule: calls)")
        #expect(declaration.contains("_ tx: DBWriteTransaction"))
    }

    /// The comment names the member that calls it, not a file and line: a
    /// path or a line number changed the generated file in another checkout
    /// and after any unrelated edit, and `--check` failed.
    @Test func itsCallersDecideWhenTheBodyCannot() throws {
        let shim = try Self.shim()
        let (writeDoc, writeDeclaration) = try Self.requirement("refresh", in: shim)
        #expect(writeDoc == "/// Write: `C.write` calls it in a write transaction (rule: callers)")
        #expect(writeDeclaration.contains("_ tx: DBWriteTransaction"))
        let (readDoc, readDeclaration) = try Self.requirement("count", in: shim)
        #expect(readDoc == "/// Read: `C.read` calls it in a read transaction (rule: callers)")
        #expect(readDeclaration.contains("_ tx: DBReadTransaction"))
    }

    @Test func theVerbListIsTheLastResort() throws {
        let shim = try Self.shim()
        let (purgeDoc, purge) = try Self.requirement("purgeCache", in: shim)
        #expect(purgeDoc == "/// Write: its name starts with \"purge\" (rule: verbs)")
        #expect(purge.contains("_ tx: DBWriteTransaction"))
        let (peekDoc, peek) = try Self.requirement("peek", in: shim)
        #expect(peekDoc == "/// Read: its name starts with no writing verb (rule: verbs)")
        #expect(peek.contains("_ tx: DBReadTransaction"))
    }

    @Test func theConfigurationOverridesTheSource() throws {
        var configuration = GeneratorConfiguration.defaults
        configuration.readMembers = ["Store.rename"]
        let (doc, declaration) = try Self.requirement("rename", in: Self.shim(configuration: configuration))
        #expect(doc == "/// Read: readMembers lists it (rule: configuration)")
        #expect(declaration.contains("_ tx: DBReadTransaction"))
    }

    @Test func aReadAndAWriteTransactionTypeDecideByTheParameter() throws {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [
            .init(type: "ReadTx", transaction: .infer, bridge: "ReadTx(try SQLiteDB.shimOnlyBridge($tx))"),
            .init(type: "WriteTx", transaction: .infer, bridge: "WriteTx(try SQLiteDB.shimOnlyBridge($tx))"),
        ]
        let shim = try Self.shim(
            configuration: configuration,
            legacy: """
                class ReadTx {}
                final class WriteTx: ReadTx {}
                final class Store: Sendable {
                    init() {}
                    func insertLater(_ name: String, transaction: ReadTx) {}
                    func find(_ name: String, transaction: WriteTx) {}
                }
                """,
            consumer: """
                final class C {
                    let store = Store()
                    init() {}
                    func f(_ tx: DBWriteTransaction) throws {
                        let write = WriteTx(try SQLiteDB.shimOnlyBridge(tx))
                        store.insertLater("a", transaction: write)
                        store.find("a", transaction: write)
                    }
                }
                """)
        let (readDoc, read) = try Self.requirement("insertLater", in: shim)
        #expect(readDoc == "/// Read: it takes ReadTx (rule: transaction type)")
        #expect(read.contains("_ tx: DBReadTransaction"))
        let (writeDoc, write) = try Self.requirement("find", in: shim)
        #expect(writeDoc == "/// Write: it takes WriteTx (rule: transaction type)")
        #expect(write.contains("_ tx: DBWriteTransaction"))
    }

    @Test func aTypeWithoutLegacyTransactionMembersIsRefused() throws {
        let generator = try Generator(
            configuration: .defaults,
            sources: SourceSet(sources: [
                ("Book.swift", "struct Book {\n    var title: String\n    func summary() -> String { title }\n}\n"),
                ("Consumer.swift", "final class C {\n    let book = Book(title: \"\")\n    func f() -> String { book.summary() }\n}\n"),
            ]))
        let refused = #expect(throws: GeneratorError.self) { try generator.shim(consumer: "C", legacy: "Book").files }
        #expect(refused?.refusals.map(\.kind) == [.noLegacyTransaction])
        #expect(refused?.location == SourceLocation(path: "Book.swift", line: 1))
        let error = #expect(throws: GeneratorError.self) { try generator.shim(consumer: "C", legacy: "Book").edits.get() }
        #expect(try #require(error).description.contains("no member of Book takes a legacy transaction"))
    }
}
#endif
