#if Txkit
import Testing
@testable import TxkitGenerator

/// `txkit migrate` on shapes of the chatstore, recipes and ledger apps
/// (Tests/Fixtures/Apps), each as its smallest input, checked by what a
/// MockDB test of the migrated consumer relies on.
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
    /// takes a write transaction: the member's own transaction type
    /// decides, not its name, so a write called from a read block does
    /// not compile; a fetch in the same write block still reads.
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

    /// A write through an optional chain (`Note.anyFetch(…)?.anyRemove(
    /// transaction:)`) was taken for a read: its wrapper passed the app's
    /// read class where the member takes the write class, and the app did
    /// not build. The member at the chain's end decides.
    @Test func aWriteAtTheEndOfAnOptionalChainTakesAWriteTransaction() throws {
        let result = try MigrateTests.migrate("NoteCleaner", [Self.storage, ("Note.swift", """
            import GRDB
            final class Note {
                let id: Int64
                init(id: Int64) { self.id = id }
                static func anyFetch(id: Int64, transaction: ReadTx) throws -> Note? {
                    try Int64.fetchOne(transaction.database, sql: "SELECT id FROM note WHERE id = ?", arguments: [id]).map(Note.init)
                }
                func anyRemove(transaction: WriteTx) throws {
                    try transaction.database.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [id])
                }
            }
            """), ("NoteCleaner.swift", """
            final class NoteCleaner {
                private let storage: Storage
                init(storage: Storage) { self.storage = storage }
                func remove(_ id: Int64) throws {
                    try storage.write { transaction in
                        try Note.anyFetch(id: id, transaction: transaction)?.anyRemove(transaction: transaction)
                    }
                }
            }
            """)], legacy: Self.appTransactions)
        let shim = try result.file("NoteCleaner_DatabaseShim.swift")
        #expect(shim.contains("func anyRemove(id: Int64, _ tx: DBWriteTransaction) throws"))
        // The fetch inside the chain is no requirement of its own: nothing calls it.
        #expect(!shim.contains("func anyFetch"))
        let wrapper = try result.file("NoteCleaner_DatabaseWrapper.swift")
        #expect(wrapper.contains("let transaction = WriteTx(database: try SQLiteDB.shimOnlyBridge(tx))"))
        #expect(!wrapper.contains("ReadTx("))
    }

    /// The same member read in a method that receives the app's read class
    /// and in a block of its write class became two requirements with the
    /// same code (`contact(contactStore:for:_:)` and
    /// `contactContactStore(contactStore:for:_:)`): both build the read
    /// class now, and are one.
    @Test func theSameReadInAReadMethodAndInAWriteBlockIsOneRequirement() throws {
        let result = try MigrateTests.migrate("ContactManager", [Self.storage, ("Contacts.swift", """
            import GRDB
            final class ContactStore {
                func contact(for address: String, transaction: ReadTx) throws -> String? {
                    try String.fetchOne(transaction.database, sql: "SELECT name FROM contact WHERE address = ?", arguments: [address])
                }
                func upsert(_ name: String, address: String, transaction: WriteTx) throws {
                    try transaction.database.execute(sql: "INSERT OR REPLACE INTO contact (address, name) VALUES (?, ?)", arguments: [address, name])
                }
            }
            final class Services {
                let storage: Storage
                let contactStore = ContactStore()
                init(storage: Storage) { self.storage = storage }
            }
            """), ("ContactManager.swift", """
            final class ContactManager {
                private let services: Services
                init(services: Services) { self.services = services }
                func displayName(for address: String, transaction: ReadTx) -> String {
                    (try? services.contactStore.contact(for: address, transaction: transaction)) ?? address
                }
                func rename(_ address: String, to name: String) throws {
                    try services.storage.write { transaction in
                        guard try services.contactStore.contact(for: address, transaction: transaction) != nil else { return }
                        try services.contactStore.upsert(name, address: address, transaction: transaction)
                    }
                }
            }
            """)], legacy: Self.appTransactions)
        let shim = try result.file("ContactManager_DatabaseShim.swift")
        #expect(shim.components(separatedBy: "func ").count - 1 == 2, "one read, one write")
        #expect(shim.contains("func contact(contactStore: ContactStore, for address: String, _ tx: DBReadTransaction) throws -> String?"))
        #expect(shim.contains("func upsert(contactStore: ContactStore, _ name: String, address: String, _ tx: DBWriteTransaction) throws"))
    }

    /// Two fetches of a plain value in one method were `fetchInt64(day:)`
    /// and `fetchInt64InNetWorth(day:)`: a value or row fetch is named by
    /// what the code binds it to.
    @Test func aFetchedValueIsNamedByItsBinding() throws {
        let result = try MigrateTests.migrate("ReportService", [("ReportService.swift", """
            import GRDB
            final class ReportService {
                private let dbQueue: DatabaseQueue
                init(dbQueue: DatabaseQueue) { self.dbQueue = dbQueue }
                func netWorth(on day: String) throws -> Int64 {
                    try dbQueue.read { db in
                        let opening = try Int64.fetchOne(db, sql: "SELECT SUM(openingCents) FROM accounts WHERE openedOn <= ?", arguments: [day]) ?? 0
                        let activity = try Int64.fetchOne(db, sql: "SELECT SUM(amountCents) FROM transactions WHERE date <= ?", arguments: [day]) ?? 0
                        return opening + activity
                    }
                }
            }
            """), ("Adopt.swift", """
            import GRDB
            import TransactionKitSQLite
            func adopt(_ queue: DatabaseQueue) throws -> SQLiteDB { try SQLiteDB(adopting: queue) }
            """)])
        let shim = try result.file("ReportService_DatabaseShim.swift")
        #expect(shim.contains("func fetchOpening(day: String, _ tx: DBReadTransaction) throws -> Int64?"))
        #expect(shim.contains("func fetchActivity(day: String, _ tx: DBReadTransaction) throws -> Int64?"))
    }

    /// The app's shared dependencies, which hold its storage.
    static let dependencies = ("Dependencies.swift", """
        final class Dependencies {
            let storage: Storage
            let notifications: [String] = []
            init(storage: Storage) { self.storage = storage }
        }
        """)

    static let sender = ("Sender.swift", """
        import GRDB
        final class Sender {
            private let dependencies: Dependencies
            init(dependencies: Dependencies) { self.dependencies = dependencies }
            func send(_ text: String) throws {
                try dependencies.storage.write { transaction in
                    try transaction.database.execute(sql: "INSERT INTO message (text) VALUES (?)", arguments: [text])
                }
            }
        }
        """)

    /// `sources` after `result`: the consumer's file edited, the files it
    /// wrote added (the production entry points among them).
    static func applying(_ result: MigrateTests.Result, to sources: [(String, String)]) -> [(String, String)] {
        sources.map { path, text in (path, result.edited[path] ?? text) }
            + result.files.filter { $0.key.hasPrefix("Sources/") }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// A consumer that builds a consumer migrated before it (`lazy var
    /// sender = Sender(dependencies:)`) kept building it with the
    /// production initializer: on a `MockDB` the collaborator's wrapper
    /// received a `MockDB` transaction. The collaborator is injected now,
    /// built by the production initializer as it was, and a test passes
    /// one built on its `MockDB`.
    @Test func aCollaboratorMigratedBeforeIsInjected() throws {
        let updater = ("Updater.swift", """
            import GRDB
            final class Updater {
                private let dependencies: Dependencies
                private lazy var sender = Sender(dependencies: dependencies)
                init(dependencies: Dependencies) { self.dependencies = dependencies }
                func rename(_ name: String) throws {
                    try dependencies.storage.write { transaction in
                        try transaction.database.execute(sql: "UPDATE thread SET name = ?", arguments: [name])
                    }
                    try sender.send("renamed to \\(name)")
                }
            }
            """)
        let before = [Self.storage, Self.dependencies, Self.sender, updater]
        let sent = try MigrateTests.migrate("Sender", before, legacy: Self.appTransactions)
        let result = try MigrateTests.migrate("Updater", Self.applying(sent, to: before), legacy: Self.appTransactions)
        let migrated = try #require(result.edited["Updater.swift"])
        #expect(migrated.contains("private let sender: Sender"))
        #expect(!migrated.contains("lazy"))
        #expect(!migrated.contains("Dependencies"), "dependencies only reached the storage and built the sender")
        #expect(migrated.contains("init(db: any DB, sender: Sender"))
        let production = try result.file("Updater+Production.swift")
        #expect(production.contains("self.init(db: dependencies.storage.sqlite, sender: Sender(dependencies: dependencies))"))
    }

    /// A collaborator whose initial value needs `self` stays lazy: the
    /// production initializer cannot build it before `self` exists.
    @Test func aCollaboratorBuiltFromSelfStaysLazy() throws {
        let updater = ("Updater.swift", """
            import GRDB
            final class Updater {
                private let dependencies: Dependencies
                private lazy var sender = Sender(dependencies: self.dependencies)
                init(dependencies: Dependencies) { self.dependencies = dependencies }
                func rename(_ name: String) throws {
                    try dependencies.storage.write { transaction in
                        try transaction.database.execute(sql: "UPDATE thread SET name = ?", arguments: [name])
                    }
                    try sender.send(name)
                }
            }
            """)
        let before = [Self.storage, Self.dependencies, Self.sender, updater]
        let sent = try MigrateTests.migrate("Sender", before, legacy: Self.appTransactions)
        let result = try MigrateTests.migrate("Updater", Self.applying(sent, to: before), legacy: Self.appTransactions)
        let migrated = try #require(result.edited["Updater.swift"])
        #expect(migrated.contains("private lazy var sender = Sender(dependencies: self.dependencies)"))
    }
}
#endif
