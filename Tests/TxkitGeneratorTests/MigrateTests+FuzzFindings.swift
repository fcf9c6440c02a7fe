#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// Minimal repros of what the fuzzer's migrate oracle found: after `txkit
/// migrate`, the program must build and the migrated type must name no
/// GRDB type. Each open defect is a known issue: the test passes while
/// migrate still does it, and fails (to be unwrapped) once it is fixed.
extension MigrateTests {
    static let taskStore = ("TaskStore.swift", """
        import GRDB
        final class TaskStore {
            init() {}
            func count(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1 }
        }
        """)

    /// The app's holder as GRDB's demo apps write it: a writer, a computed
    /// reader that is the writer, and the `SQLiteDB` adopting it.
    static let appDatabase = ("AppDatabase.swift", """
        import GRDB
        import TransactionKitSQLite
        final class AppDatabase: Sendable {
            nonisolated(unsafe) static var shared: AppDatabase!
            let dbWriter: any DatabaseWriter
            var reader: any DatabaseReader { dbWriter }
            let sqlite: SQLiteDB
            init(_ dbWriter: any DatabaseWriter) throws {
                self.dbWriter = dbWriter
                sqlite = try SQLiteDB(adopting: dbWriter)
            }
        }
        """)

    static func profileService(_ declaration: String) -> (String, String) {
        ("ProfileService.swift", """
            import GRDB
            final class ProfileService {
                private let dbQueue: DatabaseQueue
                \(declaration)
                init(dbQueue: DatabaseQueue = DatabaseManager.shared.dbQueue, taskStore: TaskStore?) {
                    self.dbQueue = dbQueue
                    self.taskStore = taskStore
                }
                func total() throws -> Int { try dbQueue.read { db in try taskStore?.count(db) ?? -1 } }
            }
            """)
    }

    /// An optional finder property (`var taskStore: TaskStore?`, called
    /// `taskStore?.count(db)`) stays optional: the migrated initializer takes
    /// an optional shim, the production one maps the `TaskStore?` it receives
    /// to its wrapper, and the call keeps its `?.` on the shim. It became
    /// `var taskStore: any Shims.TaskStore`, which the production
    /// initializer's `Wrappers.TaskStore(taskStore)` (a `TaskStore?`) and the
    /// `Database` wrapper's `taskStore?.count(db)` did not compile against
    /// (fuzzer P0 and P1 of seed 38, P1 of seed 64092454691511293).
    @Test func anOptionalFinderPropertyStaysOptional() throws {
        let result = try Self.migrate("ProfileService", [Self.manager, Self.taskStore, Self.profileService("var taskStore: TaskStore?")])
        let consumer = try #require(result.edited["ProfileService.swift"])
        #expect(consumer.contains("var taskStore: (any Shims.TaskStore)?\n"), "\(consumer)")
        #expect(consumer.contains("init(db: any DB, taskStore: (any Shims.TaskStore)?) {"), "\(consumer)")
        #expect(consumer.contains("try db.read { tx in try taskStore?.count(tx) ?? -1 }"), "\(consumer)")
        // The call goes through the pair shim, not into the `Database` shim.
        #expect(!result.files.keys.contains { $0.hasSuffix("ProfileService_DatabaseWrapper.swift") }, "\(result.files.keys.sorted())")
        let production = try result.file("ProfileService+Production.swift")
        #expect(production.contains("taskStore: TaskStore?) {\n        self.init(db: SQLiteDB.adopter(of: dbQueue), taskStore: taskStore.map { ProfileService.Wrappers.TaskStore($0) })"),
                "\(production)")
    }

    /// The same for `weak var taskStore: TaskStore?`: the shim, optional,
    /// through the pair wrapper's `WeakReference`, which holds the production
    /// `TaskStore` weakly as the property did (`shim --apply` does the same).
    /// It became `weak var taskStore: any Shims.TaskStore`, which does not
    /// compile (`weak` needs an optional of a class-bound type; fuzzer P4 of
    /// seed 38).
    @Test func aWeakFinderPropertyStaysAWeakOptional() throws {
        let result = try Self.migrate("ProfileService", [Self.manager, Self.taskStore, Self.profileService("weak var taskStore: TaskStore?")])
        let consumer = try #require(result.edited["ProfileService.swift"])
        #expect(!consumer.contains("weak var"), "\(consumer)")
        #expect(consumer.contains("""
                var taskStore: (any Shims.TaskStore)? {
                    get { taskStoreReference.shim }
                    set { taskStoreReference = ProfileService.Wrappers.TaskStore.WeakReference(newValue) }
                }
                private var taskStoreReference = ProfileService.Wrappers.TaskStore.WeakReference()
            """), "\(consumer)")
        #expect(consumer.contains("self.taskStoreReference = ProfileService.Wrappers.TaskStore.WeakReference(taskStore)"), "\(consumer)")
        #expect(consumer.contains("try taskStore?.count(tx) ?? -1"), "\(consumer)")
        let wrapper = try result.file("ProfileService_TaskStoreWrapper.swift")
        #expect(wrapper.contains("struct WeakReference {\n        private weak var instance: TaskStore?"), "\(wrapper)")
    }

    /// A `weak` finder property the wrapper cannot hold weakly (not declared
    /// `Finder?`) is refused: dropping `weak` would keep the finder alive.
    @Test func aWeakFinderPropertyOfAnotherTypeIsRefused() throws {
        let refusals = try Self.refusals("ProfileService", [Self.manager, Self.taskStore, Self.profileService("weak var taskStore: TaskStore!")])
        #expect(refusals.contains { $0.contains("`taskStore` is a weak reference to TaskStore") }, "\(refusals)")
    }

    /// A service that reads through `any DatabaseReader` is wired to the
    /// adopter of that reader (`SQLiteDB.adopter(ofReader:)`, which finds the
    /// adopted pool or queue the reader is): `SQLiteDB.adopter(of: reader)`
    /// takes a writer and did not compile (error: argument type 'any
    /// DatabaseReader' does not conform to expected type 'DatabaseWriter';
    /// fuzzer P2 of seed 38).
    @Test func aReaderIsNotPassedWhereAWriterIsExpected() throws {
        let result = try Self.migrate("NoteService", [Self.manager, Self.note, ("NoteService.swift", """
            import GRDB
            final class NoteService {
                private let reader: any DatabaseReader
                init(reader: any DatabaseReader) { self.reader = reader }
                func count() throws -> Int { try reader.read { db in try Note.fetchCount(db) } }
            }
            """)])
        let production = try result.file("NoteService+Production.swift")
        #expect(production.contains("""
            convenience init(reader: any DatabaseReader) {
                    self.init(db: SQLiteDB.adopter(ofReader: reader))
            """), "\(production)")
        let consumer = try #require(result.edited["NoteService.swift"])
        #expect(consumer.contains("try db.read { tx in try dataAccess.countNotes(tx) }"), "\(consumer)")
    }

    /// A reader that is not the adopted pool or queue (a snapshot) is
    /// refused: no `SQLiteDB` adopts it, so the migrated code would build,
    /// then find no database.
    @Test func aSnapshotIsRefused() throws {
        let refusals = try Self.refusals("NoteService", [Self.manager, Self.note, ("NoteService.swift", """
            import GRDB
            final class NoteService {
                private let snapshot: DatabaseSnapshotPool
                init(snapshot: DatabaseSnapshotPool) { self.snapshot = snapshot }
                func count() throws -> Int { try snapshot.read { db in try Note.fetchCount(db) } }
            }
            """)])
        #expect(refusals.contains { $0.contains("a DatabaseSnapshotPool, which is not the pool or queue") }, "\(refusals)")
    }

    /// A consumer that holds `any DB` but bridges inside its blocks
    /// (`let legacy = try SQLiteDB.shimOnlyBridge(tx)`, then a finder call)
    /// is bridged, not migrated (DESIGN.md): migrate moves the finder behind
    /// its pair shim, as for a consumer on a GRDB pool, and drops the bridge
    /// and the imports nothing needs any more. It answered "already
    /// migrated" and wrote nothing (fuzzer: 5 of 64 types of seed
    /// 64092454691511293).
    @Test func aConsumerThatBridgesInItsBlocksIsNotAlreadyMigrated() throws {
        let result = try Self.migrate("TaskManager", [Self.taskStore, ("TaskManager.swift", """
            import GRDB
            import TransactionKit
            import TransactionKitSQLite
            final class TaskManager {
                let db: any DB
                let taskStore: TaskStore
                init(db: any DB, taskStore: TaskStore) {
                    self.db = db
                    self.taskStore = taskStore
                }
                func total() throws -> Int {
                    try db.read { tx in
                        let legacy = try SQLiteDB.shimOnlyBridge(tx)
                        return try taskStore.count(legacy)
                    }
                }
            }
            """)])
        let consumer = try #require(result.edited["TaskManager.swift"])
        #expect(consumer == """
            import TransactionKit
            final class TaskManager {
                let db: any DB
                let taskStore: any Shims.TaskStore
                init(db: any DB, taskStore: any Shims.TaskStore) {
                    self.db = db
                    self.taskStore = taskStore
                }
                func total() throws -> Int {
                    try db.read { tx in
                        return try taskStore.count(tx)
                    }
                }
            }
            """, "\(consumer)")
        let shim = try result.file("TaskManager_TaskStoreShim.swift")
        #expect(shim.contains("func count(_ tx: DBReadTransaction) throws -> Int"), "\(shim)")
        let production = try result.file("TaskManager+Production.swift")
        #expect(production.contains("""
            convenience init(db: any DB, taskStore: TaskStore) {
                    self.init(db: db, taskStore: TaskManager.Wrappers.TaskStore(taskStore))
            """), "\(production)")
    }

    /// Bridges written inline (`finder.count(try SQLiteDB.shimOnlyBridge(tx))`,
    /// GRDB code on `SQLiteDB.shimOnlyBridge(tx)`) are uses of the legacy
    /// transaction: the finder call takes `tx`, the GRDB code moves into the
    /// `Database` shim, bridged by its wrapper.
    @Test func inlineBridgesInABlockMoveBehindTheShims() throws {
        let result = try Self.migrate("TaskManager", [Self.taskStore, ("TaskManager.swift", """
            import GRDB
            import TransactionKit
            import TransactionKitSQLite
            final class TaskManager {
                let db: any DB
                let taskStore = TaskStore()
                init(db: any DB) { self.db = db }
                func total() throws -> Int {
                    try db.read { tx in try taskStore.count(try SQLiteDB.shimOnlyBridge(tx)) }
                }
                func named(_ name: String) throws -> Int {
                    try db.write { tx in
                        let count = try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM t WHERE name = ?", arguments: [name]) ?? 0
                        return count + 1
                    }
                }
            }
            """)])
        let consumer = try #require(result.edited["TaskManager.swift"])
        #expect(!consumer.contains("SQLiteDB") && !consumer.contains("GRDB"), "\(consumer)")
        #expect(consumer.contains("try db.read { tx in try taskStore.count(tx) }"), "\(consumer)")
        #expect(consumer.contains("try db.write { tx in\n            let count = try dataAccess."), "\(consumer)")
        let wrapper = try result.file("TaskManager_DatabaseWrapper.swift")
        // `db` is the consumer's database: the wrapper names the bridged one apart.
        #expect(wrapper.contains("let legacy = try SQLiteDB.shimOnlyBridge(tx)\n        return try Int.fetchOne(legacy, sql: "), "\(wrapper)")
    }

    /// A configured bridge to the app's own transaction
    /// (`AppReadTransaction(try SQLiteDB.shimOnlyBridge(tx))`) is a bridge too:
    /// the finder taking that transaction is called through its pair shim.
    @Test func aConfiguredBridgeToTheAppsTransactionMovesBehindThePairShim() throws {
        let legacy: [GeneratorConfiguration.LegacyTransaction] = [
            .init(type: "AppReadTransaction", transaction: .read, bridge: "AppReadTransaction(try SQLiteDB.shimOnlyBridge($tx))"),
        ]
        let result = try Self.migrate("TaskManager", [("AppTransaction.swift", """
            import GRDB
            class AppReadTransaction {
                let database: Database
                init(_ database: Database) { self.database = database }
            }
            """), ("TaskStore.swift", """
            import GRDB
            final class TaskStore {
                init() {}
                func count(in transaction: AppReadTransaction) throws -> Int {
                    try Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM t") ?? -1
                }
            }
            """), ("TaskManager.swift", """
            import GRDB
            import TransactionKit
            import TransactionKitSQLite
            final class TaskManager {
                let db: any DB
                let taskStore: TaskStore
                init(db: any DB, taskStore: TaskStore) {
                    self.db = db
                    self.taskStore = taskStore
                }
                func total() throws -> Int {
                    try db.read { tx in try taskStore.count(in: AppReadTransaction(try SQLiteDB.shimOnlyBridge(tx))) }
                }
            }
            """)], legacy: legacy)
        let consumer = try #require(result.edited["TaskManager.swift"])
        #expect(consumer.contains("try db.read { tx in try taskStore.count(tx) }"), "\(consumer)")
        #expect(!consumer.contains("AppReadTransaction") && !consumer.contains("SQLiteDB"), "\(consumer)")
        let wrapper = try result.file("TaskManager_TaskStoreWrapper.swift")
        #expect(wrapper.contains("AppReadTransaction(try SQLiteDB.shimOnlyBridge(tx))"), "\(wrapper)")
    }

    /// `AppDatabase`'s `dbWriter` and its computed `reader { dbWriter }` are
    /// one database: a service that writes through one and reads through
    /// the other is migrated onto the adopter of `dbWriter` (it was refused
    /// as opening "transactions on more than one database": fuzzer, 4 of 64
    /// types of seed 64092454691511293, the most frequent refusal).
    @Test func aHoldersWriterAndItsComputedReaderAreOneDatabase() throws {
        let sources = [Self.note, Self.appDatabase, ("NoteService.swift", """
            import GRDB
            final class NoteService {
                private let appDatabase: AppDatabase
                init(appDatabase: AppDatabase = AppDatabase.shared) { self.appDatabase = appDatabase }
                func count() throws -> Int { try appDatabase.reader.read { db in try Note.fetchCount(db) } }
                func add() throws { try appDatabase.dbWriter.write { db in try Note(id: nil, title: "a").insert(db) } }
            }
            """)]
        let result = try Self.migrate("NoteService", sources)
        let production = try result.file("NoteService+Production.swift")
        #expect(production.contains("SQLiteDB.adopter(of: appDatabase.dbWriter)"), "\(production)")
        let consumer = try #require(result.edited["NoteService.swift"])
        #expect(consumer.contains("db.read { tx in") && consumer.contains("db.write { tx in"), "\(consumer)")
        #expect(!consumer.contains("appDatabase"), "\(consumer)")
    }
    /// A method that receives `db: Database` and only reads through a
    /// finder member taking a closure (`forEachName(db:_:)`) is a read: its
    /// production entry point bridges a read. It bridged a write (the
    /// closure's `names.append($0)` read as a writing verb), so a caller
    /// inside `pool.read { db in … }` trapped at run time
    /// ("writeTransaction(bridging:) received a read-only connection";
    /// fuzzer P2 of seed 64092454691511293): code that compiled, then trapped.
    @Test func aReceivedTransactionOnlyReadThroughAClosureMemberIsBridgedAsARead() throws {
        let result = try Self.migrate("ProfileService", [Self.manager, ("TaskStore.swift", """
            import GRDB
            final class TaskStore {
                init() {}
                func forEachName(db: Database, _ body: (String) -> Void) throws {
                    for name in try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY id") { body(name) }
                }
            }
            """), ("ProfileService.swift", """
            import GRDB
            final class ProfileService {
                let taskStore = TaskStore()
                init() {}
                func names(db: Database) throws -> String {
                    var names: [String] = []
                    try taskStore.forEachName(db: db) { names.append($0) }
                    return names.joined(separator: ",")
                }
            }
            """), ("Entry.swift", """
            import GRDB
            func entry() throws -> String { try DatabaseManager.shared.dbQueue.read { db in try ProfileService().names(db: db) } }
            """)])
        let production = try result.file("ProfileService+Production.swift")
        #expect(production.contains("try names(db: SQLiteDB.readTransaction(bridging: db))"), "\(production)")
    }
    /// A held finder called with the app's transaction built inline
    /// (`taskStore.forEachName(AppReadTransaction(db)) { … }`) is a call of
    /// its pair shim, given the TransactionKit transaction. The whole call
    /// became a requirement of the `Database` shim named
    /// `AppReadTransaction`, whose wrapper then called the type
    /// `AppReadTransaction` and did not compile ("use of
    /// 'AppReadTransaction' refers to instance method rather than class";
    /// fuzzer P21 of seed 64092454691511293, P3 and P5 of seed 20261128901).
    @Test func aFinderCalledWithTheAppsTransactionBuiltInlineGoesThroughItsPairShim() throws {
        let legacy: [GeneratorConfiguration.LegacyTransaction] = [
            .init(type: "AppReadTransaction", transaction: .read, bridge: "AppReadTransaction(try SQLiteDB.shimOnlyBridge($tx))",
                  reverseBridge: .init(read: "SQLiteDB.readTransaction(bridging: $legacy.database)")),
        ]
        let result = try Self.migrate("ProfileService", [Self.manager, ("AppTransaction.swift", """
            import GRDB
            class AppReadTransaction {
                let database: Database
                init(_ database: Database) { self.database = database }
            }
            """), ("TaskStore.swift", """
            import GRDB
            final class TaskStore {
                init() {}
                func forEachName(_ db: AppReadTransaction, _ body: (String) -> Void) throws {
                    for name in try String.fetchAll(db.database, sql: "SELECT name FROM t ORDER BY id") { body(name) }
                }
            }
            """), ("ProfileService.swift", """
            import GRDB
            final class ProfileService {
                let dbQueue: DatabaseQueue
                let taskStore: TaskStore
                init(dbQueue: DatabaseQueue = DatabaseManager.shared.dbQueue, taskStore: TaskStore) {
                    self.dbQueue = dbQueue
                    self.taskStore = taskStore
                }
                func names() throws -> String {
                    try dbQueue.read { db in
                        var names: [String] = []
                        try taskStore.forEachName(AppReadTransaction(db)) { names.append($0) }
                        return names.joined(separator: ",")
                    }
                }
            }
            """)], legacy: legacy)
        let consumer = try #require(result.edited["ProfileService.swift"])
        #expect(!consumer.contains("AppReadTransaction"), "\(consumer)")
        #expect(consumer.contains("try taskStore.forEachName(tx) { names.append($0) }"), "\(consumer)")
    }
    /// An awaited static member of a finder (`try await TaskStore.insert(…,
    /// transaction: db)`) moved into the `Database` shim keeps its `await`
    /// and makes its requirement `async`: the wrapper called the async
    /// member without `await` from a synchronous requirement, which did not
    /// compile ("'async' call in a function that does not support
    /// concurrency"; fuzzer P9, P18, P22 of seed 64092454691511293).
    @Test func anAwaitedStaticFinderMemberMakesItsRequirementAsync() throws {
        let result = try Self.migrate("OrderManager", [Self.manager, ("TaskStore.swift", """
            import GRDB
            enum TaskStore {
                static func insert(name: String, transaction db: Database) async throws -> Int64 {
                    try db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: [name])
                    return db.lastInsertedRowID
                }
            }
            """), ("OrderManager.swift", """
            import GRDB
            final class OrderManager: Sendable {
                init() {}
                func add(db: Database) async throws -> String {
                    String(describing: try await TaskStore.insert(name: "a", transaction: db))
                }
            }
            """)])
        let wrapper = try result.file("OrderManager_DatabaseWrapper.swift")
        #expect(wrapper.contains("try await TaskStore.insert("), "\(wrapper)")
        let shim = try result.file("OrderManager_DatabaseShim.swift")
        #expect(shim.contains("async throws -> Int64"), "\(shim)")
        let consumer = try #require(result.edited["OrderManager.swift"])
        #expect(consumer.contains("try await "), "\(consumer)")
    }
}

/// A service whose every method receives its transaction keeps the
/// holder it was given only to store it. Its migrated initializer then
/// takes nothing without a default (`init(dataAccess: … = Wrappers.Database())`),
/// nor did the initializer callers used (`init(appDatabase: AppDatabase =
/// AppDatabase.shared)`), so `LedgerService()`, in the app and in the
/// production initializer's own `self.init()`, matched both: "ambiguous
/// use of 'init'" (fuzzer P239 and 12 more of seed 20261128400). The
/// migrated one's shim parameter now has no default where production
/// keeps an initializer.
extension MigrateTests {
    @Test func theProductionInitializerDoesNotClashWithAMigratedOneThatTakesNothing() throws {
        let result = try Self.migrate("LedgerService", [Self.appDatabase, Self.note, ("LedgerService.swift", """
            import GRDB
            import TransactionKit
            import TransactionKitSQLite
            final class LedgerService {
                private let appDatabase: AppDatabase
                init(appDatabase: AppDatabase = AppDatabase.shared, limit: Int = 10) {
                    self.appDatabase = appDatabase
                }
                func count(tx: DBReadTransaction) throws -> Int {
                    let db = try SQLiteDB.shimOnlyBridge(tx)
                    return try Note.fetchCount(db)
                }
            }
            """)])
        let service = try #require(result.edited["LedgerService.swift"])
        // Tests pass the shim: it has no default.
        #expect(service.contains("init(dataAccess: any Shims.Database) {"), "\(service)")
        // Callers keep every form they had (`LedgerService()`, `(limit:)`),
        // which only the production initializer matches.
        let production = try result.file("LedgerService+Production.swift")
        #expect(production.contains("""
                convenience init(appDatabase: AppDatabase = AppDatabase.shared, limit: Int = 10) {
                    self.init(dataAccess: LedgerService.Wrappers.Database())
            """), "\(production)")
    }
}
#endif
