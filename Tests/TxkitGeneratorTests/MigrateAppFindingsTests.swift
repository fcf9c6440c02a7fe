#if Txkit
import Testing
@testable import TxkitGenerator

/// `txkit migrate` on what the apps stage's MockDB tests found in the
/// chatstore, recipes and ledger apps (Tests/Fixtures/Apps): each test is
/// the finding's minimal repro.
@Suite("txkit migrate: the apps' findings")
struct MigrateAppFindingsTests {
    /// An app's own transaction classes over GRDB's `Database`, as
    /// chatstore's `ReadTx`/`WriteTx`, and its holder.
    static let storage = ("Storage.swift", """
        import GRDB
        import TransactionKitSQLite
        class ReadTx {
            let database: Database
            init(database: Database) { self.database = database }
        }
        final class WriteTx: ReadTx {}
        final class Storage {
            private let queue: DatabaseQueue
            let sqlite: SQLiteDB
            init(queue: DatabaseQueue) throws {
                self.queue = queue
                sqlite = try SQLiteDB(adopting: queue)
            }
            func read<T>(_ block: (ReadTx) throws -> T) throws -> T { try queue.read { try block(ReadTx(database: $0)) } }
            func write<T>(_ block: (WriteTx) throws -> T) throws -> T { try queue.write { try block(WriteTx(database: $0)) } }
        }
        """)

    static let appTransactions: [GeneratorConfiguration.LegacyTransaction] = [
        .init(type: "ReadTx", transaction: .read, bridge: "ReadTx(database: try SQLiteDB.shimOnlyBridge($tx))"),
        .init(type: "WriteTx", transaction: .write, bridge: "WriteTx(database: try SQLiteDB.shimOnlyBridge($tx))"),
    ]

    /// A record's write method named without a writing verb (`anyInsert`)
    /// took a read transaction: a write called from a read block compiled
    /// and passed on MockDB. The member's own transaction type decides now,
    /// and a fetch in the same write block still reads.
    @Test func aRecordsWriteMethodTakesAWriteTransaction() throws {
        let result = try MigrateTests.migrate("NoteManager", [Self.storage, ("Note.swift", """
            import GRDB
            final class Note {
                let text: String
                init(text: String) { self.text = text }
                func anyInsert(transaction: WriteTx) throws {
                    try transaction.database.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [text])
                }
                static func anyFetch(text: String, transaction: ReadTx) throws -> Int? {
                    try Int.fetchOne(transaction.database, sql: "SELECT id FROM note WHERE text = ?", arguments: [text])
                }
                static func anyTouch(transaction: WriteTx) throws -> Int { 0 }
            }
            """), ("NoteManager.swift", """
            final class NoteManager {
                private let storage: Storage
                init(storage: Storage) { self.storage = storage }
                func add(_ text: String) throws {
                    try storage.write { transaction in
                        guard try Note.anyFetch(text: text, transaction: transaction) == nil else { return }
                        try Note(text: text).anyInsert(transaction: transaction)
                    }
                }
            }
            """)], legacy: Self.appTransactions)
        let shim = try result.file("NoteManager_DatabaseShim.swift")
        #expect(shim.contains("func anyInsert(note: Note, _ tx: DBWriteTransaction) throws"))
        #expect(shim.contains("func anyFetch(text: String, _ tx: DBReadTransaction) throws -> Int?"))
        // The read builds the app's read class, the write its write class.
        let wrapper = try result.file("NoteManager_DatabaseWrapper.swift")
        #expect(wrapper.contains("""
                func anyFetch(text: String, _ tx: DBReadTransaction) throws -> Int? {
                    let transaction = ReadTx(database: try SQLiteDB.shimOnlyBridge(tx))
            """))
        #expect(wrapper.contains("""
                func anyInsert(note: Note, _ tx: DBWriteTransaction) throws {
                    let transaction = WriteTx(database: try SQLiteDB.shimOnlyBridge(tx))
            """))
    }
}
#endif
