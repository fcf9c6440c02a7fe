#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// `txkit migrate`: one consumer, all the way to `any DB`, on the shapes GRDB
/// apps are written in. Each test is a minimal repro of a shape met in the
/// apps of `../shared/apps` or in issue 51's list.
@Suite("txkit migrate")
struct MigrateTests {
    /// The app's holder, adopting its queue the way the guide says to.
    static let manager = ("DatabaseManager.swift", """
        import GRDB
        import TransactionKitSQLite
        final class DatabaseManager {
            static let shared = try! DatabaseManager()
            let dbQueue: DatabaseQueue
            private(set) var sqlite: SQLiteDB!
            init() throws {
                dbQueue = try DatabaseQueue()
                sqlite = try SQLiteDB(adopting: dbQueue)
            }
        }
        """)

    static let note = ("Note.swift", """
        import GRDB
        struct Note: Codable, FetchableRecord, PersistableRecord {
            var id: Int64?
            var title: String
        }
        """)

    /// The migration's files and edited sources, by file name.
    struct Result {
        var files: [String: String]
        var edited: [String: String]

        func file(_ suffix: String) throws -> String {
            try #require(files.first { $0.key.hasSuffix(suffix) }?.value, "no file \(suffix) in \(files.keys.sorted())")
        }
    }

    static func migrate(
        _ consumer: String, _ sources: [(String, String)], legacy: [GeneratorConfiguration.LegacyTransaction] = []
    ) throws -> Result {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = legacy + [
            .init(type: "Database", transaction: .infer, bridge: "try SQLiteDB.shimOnlyBridge($tx)"),
        ]
        configuration.shimsFolder = "Sources/App/Shortcuts/$consumer"
        configuration.mocksFolder = "Tests/AppTests/Mocks"
        configuration.mockImports = ["@testable App"]
        configuration.accessLevel = .internal
        let generator = Generator(
            configuration: configuration, sources: try SourceSet(sources: sources.map { (path: $0.0, text: $0.1) }))
        let output = try generator.migrate(consumer: consumer)
        let files = output.files, edits = output.edits
        for file in files {
            try FileChangeSet.requireParses(file.contents, path: file.path)
        }
        for edit in edits {
            try FileChangeSet.requireParses(edit.edited, path: edit.path)
        }
        return Result(
            files: Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.contents) }),
            edited: Dictionary(uniqueKeysWithValues: edits.map { ($0.path, $0.edited) }))
    }

    static func refusals(_ consumer: String, _ sources: [(String, String)]) throws -> [String] {
        do {
            _ = try migrate(consumer, sources)
        } catch let error as GeneratorError {
            return error.refusals.map(\.description)
        }
        Issue.record("\(consumer) was migrated")
        return []
    }

    // MARK: Queues, records, the query interface

    @Test func aServiceOnAQueueReachesItsRecordsThroughItsDatabaseShim() throws {
        let result = try Self.migrate("NoteService", [Self.manager, Self.note, ("NoteService.swift", """
            import GRDB
            final class NoteService {
                private let dbQueue: DatabaseQueue
                init(dbQueue: DatabaseQueue = DatabaseManager.shared.dbQueue) {
                    self.dbQueue = dbQueue
                }
                func note(id: Int64) throws -> Note? {
                    try dbQueue.read { db in try Note.fetchOne(db, key: id) }
                }
                func titles(matching text: String) throws -> [String] {
                    try dbQueue.read { db in
                        let notes = try Note.filter(Column("title").like("%\\(text)%")).order(Column("title")).fetchAll(db)
                        return notes.map(\\.title)
                    }
                }
            }
            """)])
        let service = try #require(result.edited["NoteService.swift"])
        #expect(!service.contains("GRDB"))
        #expect(!service.contains("DatabaseQueue"))
        #expect(service.contains("private let db: any DB"))
        #expect(service.contains("init(db: any DB, dataAccess: any Shims.Database = Wrappers.Database())"))
        #expect(service.contains("try db.read { tx in try dataAccess.fetchNote(id: id, tx) }"))
        // The business logic stays: only the fetch moves.
        #expect(service.contains("let notes = try dataAccess.fetchNotes(text: text, tx)\n            return notes.map(\\.title)"))
        let shim = try result.file("NoteService_DatabaseShim.swift")
        #expect(shim.contains("func fetchNote(id: Int64, _ tx: DBReadTransaction) throws -> Note?"))
        #expect(shim.contains("func fetchNotes(text: String, _ tx: DBReadTransaction) throws -> [Note]"))
        let wrapper = try result.file("NoteService_DatabaseWrapper.swift")
        #expect(wrapper.contains("let db = try SQLiteDB.shimOnlyBridge(tx)\n        return try Note.fetchOne(db, key: id)"))
        // Callers keep the initializer they used: it adopts the queue it gets.
        let production = try result.file("NoteService+Production.swift")
        #expect(production.contains("convenience init(dbQueue: DatabaseQueue = DatabaseManager.shared.dbQueue) {\n        self.init(db: SQLiteDB.adopter(of: dbQueue))"))
        let mock = try result.file("NoteService_DatabaseMock.swift")
        #expect(mock.contains("let fetchNote = MockMethod<Int64, Note?>()"))
    }

    /// Issue 51, defect 1: `Note(…).insertAndFetch(db)` was refused as
    /// using no member of a legacy type. Defect 7: a fetch in a write block
    /// takes a read transaction.
    @Test func aRecordsPersistenceIsARequirementAndAFetchInAWriteReads() throws {
        let result = try Self.migrate("NoteService", [Self.manager, Self.note, ("NoteService.swift", """
            import GRDB
            final class NoteService {
                private let dbQueue: DatabaseQueue
                init(dbQueue: DatabaseQueue = DatabaseManager.shared.dbQueue) { self.dbQueue = dbQueue }
                func add(_ title: String) throws -> Note {
                    try dbQueue.write { db in
                        if let existing = try Note.filter(Column("title") == title).fetchOne(db) { return existing }
                        return try Note(id: nil, title: title).insertAndFetch(db)
                    }
                }
            }
            """)])
        let shim = try result.file("NoteService_DatabaseShim.swift")
        #expect(shim.contains("func fetchNote(title: String, _ tx: DBReadTransaction) throws -> Note?"))
        #expect(shim.contains("func insertNote(title: String, _ tx: DBWriteTransaction) throws -> Note"))
        let service = try #require(result.edited["NoteService.swift"])
        #expect(service.contains("try db.write { tx in"))
    }

    /// Issue 51, defect 2: a second queue nobody adopted got a bridge that
    /// built and trapped; now it is refused, with the holder and the line.
    @Test func aQueueNobodyAdoptedIsRefusedWithTheLineToAdd() throws {
        let places = try Self.refusals("ArchiveService", [Self.manager, Self.note, ("AppDatabase.swift", """
            import GRDB
            final class AppDatabase {
                static let shared = try! AppDatabase()
                let archiveQueue: DatabaseQueue
                init() throws { archiveQueue = try DatabaseQueue() }
            }
            """), ("ArchiveService.swift", """
            import GRDB
            final class ArchiveService {
                private let archiveQueue: DatabaseQueue
                init(archiveQueue: DatabaseQueue = AppDatabase.shared.archiveQueue) { self.archiveQueue = archiveQueue }
                func archive(_ note: Note) throws {
                    try archiveQueue.write { db in try note.insert(db) }
                }
            }
            """)])
        #expect(places.count == 1)
        #expect(places.first?.contains("AppDatabase.archiveQueue") == true)
        #expect(places.first?.contains("SQLiteDB(adopting: archiveQueue)") == true)
    }

    /// Issue 51, defect 6: GRDB's demo apps reach the pool through
    /// `appDatabase.dbWriter`.
    @Test func theDemoAppsDbWriterIsTheDatabase() throws {
        let result = try Self.migrate("PlayerService", [("AppDatabase.swift", """
            import GRDB
            import TransactionKitSQLite
            final class AppDatabase {
                let dbWriter: any DatabaseWriter
                let sqlite: SQLiteDB
                init(_ dbWriter: any DatabaseWriter) throws {
                    self.dbWriter = dbWriter
                    sqlite = try SQLiteDB(adopting: dbWriter)
                }
            }
            """), ("Player.swift", """
            import GRDB
            struct Player: Codable, FetchableRecord, MutablePersistableRecord { var id: Int64?; var score: Int }
            """), ("PlayerService.swift", """
            import GRDB
            final class PlayerService {
                private let appDatabase: AppDatabase
                init(appDatabase: AppDatabase) { self.appDatabase = appDatabase }
                func best() throws -> Player? {
                    try appDatabase.dbWriter.read { db in try Player.order(Column("score").desc).fetchOne(db) }
                }
                func save(_ player: inout Player) throws {
                    try appDatabase.dbWriter.write { db in try player.save(db) }
                }
            }
            """)])
        let service = try #require(result.edited["PlayerService.swift"])
        #expect(service.contains("player = try dataAccess.savePlayer(player: player, tx)"))
        let production = try result.file("PlayerService+Production.swift")
        #expect(production.contains("self.init(db: SQLiteDB.adopter(of: appDatabase.dbWriter))"))
    }

    // MARK: Holders and the app's own transactions

    static let storage: [(String, String)] = [("Storage.swift", """
        import GRDB
        import TransactionKitSQLite
        class ReadTx { let database: Database; init(database: Database) { self.database = database } }
        final class WriteTx: ReadTx {
            private var completions: [() -> Void] = []
            func addCompletion(_ block: @escaping () -> Void) { completions.append(block) }
        }
        final class Storage {
            static let shared = try! Storage()
            private let pool: DatabasePool
            let sqlite: SQLiteDB
            init() throws { pool = try DatabasePool(path: "/tmp/x.sqlite"); sqlite = try SQLiteDB(adopting: pool) }
            func read<T>(_ block: (ReadTx) throws -> T) throws -> T { try pool.read { try block(ReadTx(database: $0)) } }
            func write<T>(_ block: (WriteTx) throws -> T) throws -> T { try pool.write { try block(WriteTx(database: $0)) } }
            func asyncWrite(block: @escaping (WriteTx) throws -> Void, completion: ((Error?) -> Void)?) {}
        }
        struct ThreadData {
            var isArchived = false
            static func fetchOrDefault(for id: String, transaction: ReadTx) throws -> ThreadData { ThreadData() }
            mutating func updateWith(isArchived: Bool, transaction: WriteTx) throws { self.isArchived = isArchived }
        }
        """)]

    static let appTransactions: [GeneratorConfiguration.LegacyTransaction] = [
        .init(type: "ReadTx", transaction: .read, bridge: "ReadTx(database: try SQLiteDB.shimOnlyBridge($tx))",
              reverseBridge: .init(read: "SQLiteDB.readTransaction(bridging: $legacy.database)")),
        .init(type: "WriteTx", transaction: .write, bridge: "WriteTx(database: try SQLiteDB.shimOnlyBridge($tx))",
              reverseBridge: .init(write: "SQLiteDB.writeTransaction(bridging: $legacy.database)"),
              renamedMembers: ["addCompletion": "addSyncCompletion"]),
    ]

    /// A held-out repro: a static `fetchOrDefault(for:transaction:)` and a
    /// `mutating` `updateWith(…transaction:)` on the value it returns, on an
    /// app's holder with its own transaction classes; the completion hook
    /// becomes TransactionKit's.
    @Test func aStaticFetchAndAMutatingUpdateOfItsValueOnAnAppsHolder() throws {
        let result = try Self.migrate("Archiver", Self.storage + [("Archiver.swift", """
            final class Archiver {
                private let storage: Storage
                init(storage: Storage = .shared) { self.storage = storage }
                func archive(_ id: String, then done: @escaping () -> Void) throws {
                    try storage.write { transaction in
                        var data = try ThreadData.fetchOrDefault(for: id, transaction: transaction)
                        guard !data.isArchived else { return }
                        try data.updateWith(isArchived: true, transaction: transaction)
                        transaction.addCompletion(done)
                    }
                }
            }
            """)], legacy: Self.appTransactions)
        let archiver = try #require(result.edited["Archiver.swift"])
        #expect(archiver.contains("var data = try dataAccess.fetchOrDefault(for: id, tx)"))
        #expect(archiver.contains("data = try dataAccess.updateWith(threadData: data, isArchived: true, tx)"))
        #expect(archiver.contains("tx.addSyncCompletion(done)"))
        #expect(!archiver.contains("Storage"))
        let shim = try result.file("Archiver_DatabaseShim.swift")
        #expect(shim.contains("func fetchOrDefault(for id: String, _ tx: DBReadTransaction) throws -> ThreadData"))
        #expect(shim.contains("func updateWith(threadData: ThreadData, isArchived: Bool, _ tx: DBWriteTransaction) throws -> ThreadData"))
        let wrapper = try result.file("Archiver_DatabaseWrapper.swift")
        #expect(wrapper.contains("let transaction = WriteTx(database: try SQLiteDB.shimOnlyBridge(tx))"))
        let production = try result.file("Archiver+Production.swift")
        #expect(production.contains("self.init(db: storage.sqlite)"))
    }

    /// A method that received the app's transaction takes TransactionKit's;
    /// callers that still hold the app's keep an overload that bridges.
    @Test func aMethodThatReceivedTheAppsTransactionKeepsALegacyEntryPoint() throws {
        let result = try Self.migrate("Archiver", Self.storage + [("Archiver.swift", """
            final class Archiver {
                private let storage: Storage
                init(storage: Storage = .shared) { self.storage = storage }
                func unarchive(_ id: String, transaction: WriteTx) throws {
                    var data = try ThreadData.fetchOrDefault(for: id, transaction: transaction)
                    try data.updateWith(isArchived: false, transaction: transaction)
                }
                func unarchiveNow(_ id: String) throws {
                    try storage.write { transaction in try unarchive(id, transaction: transaction) }
                }
            }
            """)], legacy: Self.appTransactions)
        let archiver = try #require(result.edited["Archiver.swift"])
        #expect(archiver.contains("func unarchive(_ id: String, transaction: DBWriteTransaction) throws {"))
        #expect(archiver.contains("try db.write { tx in try unarchive(id, transaction: tx) }"))
        let production = try result.file("Archiver+Production.swift")
        #expect(production.contains("func unarchive(_ id: String, transaction: WriteTx) throws {\n        try unarchive(id, transaction: SQLiteDB.writeTransaction(bridging: transaction.database))"))
    }

    /// `storage.asyncWrite(block:completion:)` has no TransactionKit form: it
    /// stays the holder's, behind the shim, its block given the transaction.
    @Test func aHolderMethodWithACompletionStaysTheHoldersBehindTheShim() throws {
        let result = try Self.migrate("Sender", Self.storage + [("Sender.swift", """
            final class Sender {
                private let storage: Storage
                init(storage: Storage = .shared) { self.storage = storage }
                func enqueue(_ id: String, completion: ((Error?) -> Void)?) {
                    storage.asyncWrite(block: { transaction in
                        var data = try ThreadData.fetchOrDefault(for: id, transaction: transaction)
                        try data.updateWith(isArchived: false, transaction: transaction)
                    }, completion: completion)
                }
            }
            """)], legacy: Self.appTransactions)
        let sender = try #require(result.edited["Sender.swift"])
        #expect(sender.contains("dataAccess.asyncWrite(block: { tx in"))
        let shim = try result.file("Sender_DatabaseShim.swift")
        #expect(shim.contains("func asyncWrite(block: @escaping (DBWriteTransaction) throws -> Void, completion: ((Error?) -> Void)?)"))
        let wrapper = try result.file("Sender_DatabaseWrapper.swift")
        #expect(wrapper.contains("storage.asyncWrite(block: { transaction in try block(SQLiteDB.writeTransaction(bridging: transaction.database)) }, completion: completion)"))
        let production = try result.file("Sender+Production.swift")
        #expect(production.contains("dataAccess: Sender.Wrappers.Database(storage: storage)"))
    }

    // MARK: Code that cannot move piece by piece

    /// Rows handed to the code after the block: the whole method moves, the
    /// block inlined on the bridged connection.
    @Test func aBlockThatHandsRowsOnMovesWithItsMethod() throws {
        let result = try Self.migrate("Report", [Self.manager, ("Report.swift", """
            import GRDB
            struct Report {
                let dbQueue: DatabaseQueue
                init(dbQueue: DatabaseQueue = DatabaseManager.shared.dbQueue) { self.dbQueue = dbQueue }
                func totals() throws -> [String: Int] {
                    let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT day, total FROM t") }
                    var result: [String: Int] = [:]
                    for row in rows { result[row["day"]] = row["total"] }
                    return result
                }
            }
            """)])
        let report = try #require(result.edited["Report.swift"])
        #expect(report.contains("return try db.read { tx in try dataAccess.totals(tx) }"))
        let wrapper = try result.file("Report_DatabaseWrapper.swift")
        #expect(wrapper.contains("let rows = try { db in try Row.fetchAll(db, sql: \"SELECT day, total FROM t\") }(db)"))
    }

    /// Moved code that calls the consumer's own methods gets them as closures.
    @Test func theConsumersOwnMethodsArePassedAsClosures() throws {
        let result = try Self.migrate("Indexer", Self.storage + [("Indexer.swift", """
            import GRDB
            final class Indexer {
                private let storage: Storage
                init(storage: Storage = .shared) { self.storage = storage }
                func index(_ name: String, transaction: WriteTx) throws {
                    try transaction.database.execute(sql: "INSERT INTO idx VALUES (?)", arguments: [name])
                }
                func rebuild() throws -> Int {
                    try storage.write { transaction in
                        let cursor = try String.fetchCursor(transaction.database, sql: "SELECT name FROM item")
                        var count = 0
                        while let name = try cursor.next() {
                            try index(name, transaction: transaction)
                            count += 1
                        }
                        return count
                    }
                }
            }
            """)], legacy: Self.appTransactions)
        let indexer = try #require(result.edited["Indexer.swift"])
        #expect(indexer.contains("dataAccess.rebuild(index: { try self.index($0, transaction: $1) }, tx)"))
        let shim = try result.file("Indexer_DatabaseShim.swift")
        #expect(shim.contains("func rebuild(index: (String, DBWriteTransaction) throws -> Void, _ tx: DBWriteTransaction) throws -> Int"))
        let wrapper = try result.file("Indexer_DatabaseWrapper.swift")
        #expect(wrapper.contains("try index(name, tx)"))
    }

    // MARK: Transactions that end otherwise

    @Test func inTransactionThatRollsBackBecomesWriteOrRollBackAndSavepointsStay() throws {
        let result = try Self.migrate("Planner", [Self.manager, Self.note, ("Planner.swift", """
            import GRDB
            final class Planner {
                private let dbQueue: DatabaseQueue
                init(dbQueue: DatabaseQueue = DatabaseManager.shared.dbQueue) { self.dbQueue = dbQueue }
                func plan(_ titles: [String], dryRun: Bool) throws {
                    try dbQueue.inTransaction { db in
                        for title in titles {
                            try db.inSavepoint {
                                try Note(id: nil, title: title).insert(db)
                                return title.isEmpty ? .rollback : .commit
                            }
                        }
                        return dryRun ? .rollback : .commit
                    }
                }
            }
            """)])
        let planner = try #require(result.edited["Planner.swift"])
        #expect(planner.contains("try db.writeOrRollBack { tx in"))
        #expect(planner.contains("try tx.inSavepoint {"))
        #expect(planner.contains("return title.isEmpty ? .rollback : .commit"))
        #expect(planner.contains("return dryRun ? .rollBack(()) : .commit(())"))
    }

    // MARK: Where the database comes from

    @Test func aDatabaseReadFromAGlobalIsLookedUpAtEachTransaction() throws {
        let result = try Self.migrate("Rules", [("Env.swift", """
            import GRDB
            import TransactionKitSQLite
            actor LedgerDatabase {
                nonisolated let pool: DatabasePool
                nonisolated let sqlite: SQLiteDB
                init() throws { pool = try DatabasePool(path: "/tmp/l.sqlite"); sqlite = try SQLiteDB(adopting: pool) }
                func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T { try await pool.write(body) }
            }
            struct Env { var database: LedgerDatabase!; static var current = Env() }
            enum RulesError: Error { case notConfigured }
            """), Self.note, ("Rules.swift", """
            import GRDB
            final class Rules {
                init() {}
                func add(_ title: String) async throws {
                    guard let database = Env.current.database else { throw RulesError.notConfigured }
                    try await database.write { db in try Note(id: nil, title: title).insert(db) }
                }
            }
            """)])
        let rules = try #require(result.edited["Rules.swift"])
        #expect(!rules.contains("Env.current"))
        #expect(rules.contains("try await db.write { tx in try dataAccess.insertNote(title: title, tx) }"))
        let production = try result.file("Rules+Production.swift")
        #expect(production.contains("self.init(db: SQLiteDB.deferred {"))
        #expect(production.contains("guard let database = Env.current.database else { throw RulesError.notConfigured }"))
        #expect(production.contains("return database.sqlite"))
    }

    @Test func aConsumerThatNamesNoDatabaseIsMigratedAlready() throws {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [.init(type: "Database", transaction: .infer, bridge: "try SQLiteDB.shimOnlyBridge($tx)")]
        let generator = Generator(configuration: configuration, sources: try SourceSet(sources: [
            (path: "Pantry.swift", text: "protocol Items { func count() throws -> Int }\nfinal class Pantry {\n    let items: any Items\n    init(items: any Items) { self.items = items }\n    func total() throws -> Int { try items.count() }\n}\n"),
        ]))
        let output = try generator.migrate(consumer: "Pantry")
        #expect(output.isAlreadyMigrated)
        #expect(output.files.isEmpty && output.edits.isEmpty)
    }

    /// Generated and written files are the same in any checkout and after
    /// an unrelated edit: no paths, no line numbers.
    @Test func theFilesItWritesNameNoPathOrLine() throws {
        let sources = [Self.manager, Self.note, ("NoteService.swift", """
            import GRDB
            final class NoteService {
                private let dbQueue: DatabaseQueue
                init(dbQueue: DatabaseQueue = DatabaseManager.shared.dbQueue) { self.dbQueue = dbQueue }
                func note(id: Int64) throws -> Note? { try dbQueue.read { db in try Note.fetchOne(db, key: id) } }
            }
            """)]
        let first = try Self.migrate("NoteService", sources)
        var moved = sources
        moved[2].1 = "// an unrelated comment\n" + moved[2].1
        let second = try Self.migrate("NoteService", moved)
        #expect(first.files == second.files)
        for (path, contents) in first.files {
            #expect(!contents.contains(".swift:"), "\(path)")
        }
    }
}
#endif
