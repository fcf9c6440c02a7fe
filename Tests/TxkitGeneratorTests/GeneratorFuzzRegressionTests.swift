#if Txkit
import Foundation
import Testing
import TxkitGenerator

/// Shapes of the generator fuzzer's programs that `inventory`, `shim` and
/// `--apply` must handle, each as the smallest program that shows it.
@Suite("GeneratorFuzz regressions")
struct GeneratorFuzzRegressionTests {
    static let consumer = """
        final class TaskManager {
            let store: TaskStore
            init(store: TaskStore = TaskStore()) { self.store = store }
            func title(_ tx: DBReadTransaction) throws -> String? {
                try store.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx))
            }
        }
        """

    /// A wrapper holds the legacy instance: its shim is `Sendable` only
    /// when the legacy class is, or the wrapper would not compile.
    @Test func theShimOfANonSendableLegacyClassIsNotSendable() throws {
        let legacy = """
            import GRDB
            final class TaskStore {
                var cache: [Int64: String] = [:]
                init() {}
                func name(id: Int64, db: Database) throws -> String? { cache[id] }
            }
            """
        let tree = try InlineTree([("TaskStore.swift", legacy), ("TaskManager.swift", Self.consumer)],
                                  transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let shim = try tree.shim("TaskManager", "TaskStore")
        #expect(shim.contains("protocol TaskManager_TaskStoreShim {"))
        #expect(try tree.requirements("TaskManager", "TaskStore") == ["func name(id: Int64, _ tx: DBReadTransaction) throws -> String?"])

        let sendable = try InlineTree(
            [("TaskStore.swift", legacy.replacingOccurrences(of: "final class TaskStore {", with: "final class TaskStore: Sendable {")
                .replacingOccurrences(of: "var cache", with: "let cache")),
             ("TaskManager.swift", Self.consumer)],
            transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(try sendable.shim("TaskManager", "TaskStore").contains("protocol TaskManager_TaskStoreShim: Sendable {"))
    }

    /// Mocks extend the consumer from the test target: an internal
    /// consumer is seen through `@testable import App`.
    @Test func testableMockImportsAreWrittenAsTestableImports() throws {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [.init(type: "Database", transaction: .read, bridge: "try SQLiteDB.shimOnlyBridge($tx)")]
        configuration.mockImports = ["@testable App"]
        let legacy = "import GRDB\nfinal class TaskStore: Sendable {\n    init() {}\n    func name(id: Int64, db: Database) throws -> String? { nil }\n}\n"
        let generator = try Generator(
            configuration: configuration,
            sources: SourceSet(sources: [(path: "TaskStore.swift", text: legacy), (path: "TaskManager.swift", text: Self.consumer)]))
        let files = try generator.shim(consumer: "TaskManager", legacy: "TaskStore").files
        let mocks = files.filter { $0.path.hasPrefix(configuration.mocksFolder) }
        #expect(!mocks.isEmpty)
        for file in mocks {
            #expect(file.contents.contains("@testable import App\n"))
            #expect(!file.contents.contains("import @testable"))
        }
    }

    static let store = """
        import GRDB
        final class TaskStore: Sendable {
            init() {}
            func name(id: Int64, db: Database) throws -> String? { nil }
        }
        """

    static func apply(_ files: [(String, String)], consumer: String = "TaskManager") throws -> [String: String] {
        let tree = try InlineTree([("TaskStore.swift", store)] + files, transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let edits = try tree.generator.shim(consumer: consumer, legacy: "TaskStore").edits.get()
        return Dictionary(uniqueKeysWithValues: edits.map { ($0.path, $0.edited) })
    }

    /// `private let store = TaskStore()` becomes a shim property that a
    /// test can replace: an initializer parameter fills it, whose default
    /// is the production wrapper.
    @Test func anInlineInitializedPropertyBecomesAnInitializerParameter() throws {
        let edited = try Self.apply([("TaskManager.swift", """
            final class TaskManager {
                private let store = TaskStore()
                init() {}
                func title(_ tx: DBReadTransaction) throws -> String? {
                    try store.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx))
                }
            }
            """)])
        let manager = try #require(edited["TaskManager.swift"])
        #expect(manager.contains("private let store: TaskManager.Shims.TaskStore\n"))
        #expect(manager.contains("init(store: TaskManager.Shims.TaskStore = TaskManager.Wrappers.TaskStore()) {\n        self.store = store\n    }"))
        #expect(manager.contains("try store.name(id: 1, tx)"))
    }

    /// Every caller of an initializer whose parameter is retyped passes
    /// the same instance behind the wrapper: the wiring elsewhere, and a
    /// convenience initializer that still takes the legacy type.
    @Test func callersOfARetypedInitializerParameterAreUpdated() throws {
        let edited = try Self.apply([
            ("TaskManager.swift", """
                final class TaskManager {
                    let store: TaskStore
                    init(store: TaskStore) { self.store = store }
                    convenience init(legacyStore: TaskStore) { self.init(store: legacyStore) }
                    func title(_ tx: DBReadTransaction) throws -> String? {
                        try store.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx))
                    }
                }
                """),
            ("Wiring.swift", """
                enum Wiring {
                    static func manager() -> TaskManager { TaskManager(store: TaskStore()) }
                    static func other(_ store: TaskStore) -> TaskManager { TaskManager.init(store: store) }
                }
                """),
        ])
        let manager = try #require(edited["TaskManager.swift"])
        #expect(manager.contains("init(store: TaskManager.Shims.TaskStore) { self.store = store }"))
        #expect(manager.contains("self.init(store: TaskManager.Wrappers.TaskStore(legacyStore))"))
        let wiring = try #require(edited["Wiring.swift"])
        #expect(wiring.contains("TaskManager(store: TaskManager.Wrappers.TaskStore())"))
        #expect(wiring.contains("TaskManager.init(store: TaskManager.Wrappers.TaskStore(store))"))
    }

    /// A consumer that is a legacy type itself (its methods receive the
    /// legacy transaction) is counted; building a finder to inject it is
    /// wiring, not a use.
    @Test func inventoryCountsLegacyConsumersAndNotWiring() throws {
        let tree = try InlineTree([("TaskStore.swift", Self.store), ("Managers.swift", """
            import GRDB
            final class TaskManager {
                let store: TaskStore
                init(store: TaskStore) { self.store = store }
                func title(db: Database) throws -> String? { try store.name(id: 1, db: db) }
            }
            enum Wiring {
                static func run(db: Database) throws -> String? {
                    let manager = TaskManager(store: TaskStore())
                    return try manager.title(db: db)
                }
            }
            """)], transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let inventory = tree.generator.inventory()
        #expect(Set(inventory.legacyTypes) == ["TaskStore", "TaskManager", "Wiring"])
        #expect(Set(inventory.uses.map { "\($0.consumer) → \($0.type)" }) == ["TaskManager → TaskStore", "Wiring → TaskManager"])
        #expect(inventory.unresolved.isEmpty)
    }

    /// A manager that opens blocks on the app's pool, or receives GRDB's
    /// connection, and holds no adopted database: when the sources adopt
    /// the pool at startup, --apply bridges through the type, which finds
    /// the adopted database.
    @Test func aManagerWithoutTheAdoptedDatabaseBridgesThroughTheType() throws {
        let app = ("App.swift", """
            import GRDB
            import TransactionKitSQLite
            enum App {
                static func start(pool: DatabasePool) throws -> SQLiteDB { try SQLiteDB(adopting: pool) }
            }
            """)
        let edited = try Self.apply([app, ("TaskManager.swift", """
            import GRDB
            final class TaskManager {
                let dbPool: DatabasePool
                let store = TaskStore()
                init(dbPool: DatabasePool) { self.dbPool = dbPool }
                func title() throws -> String? { try dbPool.read { db in try store.name(id: 1, db: db) } }
                func received(_ db: Database) throws -> String? { try store.name(id: 2, db: db) }
            }
            """)])
        let manager = try #require(edited["TaskManager.swift"])
        #expect(manager.contains("try dbPool.read { db in try store.name(id: 1, try SQLiteDB.readTransaction(bridging: db)) }"))
        #expect(manager.contains("try store.name(id: 2, try SQLiteDB.readTransaction(bridging: db))"))
        // A block on a pool that is not GRDB's keeps the refusal and its step.
        let error = #expect(throws: GeneratorError.self) {
            try Self.apply([app, ("TaskManager.swift", """
                final class TaskManager {
                    let dbPool: AppPool
                    let store = TaskStore()
                    init(dbPool: AppPool) { self.dbPool = dbPool }
                    func title() throws -> String? { try dbPool.read { db in try store.name(id: 1, db: db) } }
                }
                """)])
        }
        #expect(try #require(error).description.contains("a transaction the application opens itself"))
    }

    /// `--apply` lists every refused place in one run, not only the first,
    /// and writes nothing.
    @Test func oneRunListsEveryRefusal() throws {
        let error = #expect(throws: GeneratorError.self) {
            try Self.apply([("TaskManager.swift", """
                import GRDB
                final class TaskManager {
                    let pool: DatabasePool
                    init(pool: DatabasePool) { self.pool = pool }
                    func one(_ store: TaskStore) throws -> String? {
                        try pool.read { db in try store.name(id: 1, db: db) }
                    }
                    func two() throws -> String? {
                        let store = TaskStore()
                        return try pool.read { db in try store.name(id: 2, db: db) }
                    }
                }
                """)])
        }
        let refusals = try #require(error).refusals
        #expect(refusals.count == 2, "expected every refusal, got \(String(describing: error))")
        let text = try #require(error).description
        #expect(text.hasPrefix("--apply cannot route TaskManager through its shim of TaskStore at 2 places; nothing was written:"))
        #expect(text.contains("TaskManager.swift:6"))
        #expect(text.contains("TaskManager.swift:10"))
    }

    /// `let store = TaskStore()` then `store.name(…)`: the local holds a
    /// temporary, which the consumer holds in its shim property
    /// (injectable) instead, and the local goes.
    @Test func aLocalHoldingATemporaryIsRoutedThroughTheShimProperty() throws {
        let edited = try Self.apply([("TaskManager.swift", """
            final class TaskManager {
                let db: any DB
                init(db: any DB) { self.db = db }
                func title() throws -> String? {
                    let store = TaskStore()
                    return try db.read { tx in try store.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx)) }
                }
            }
            """)])
        let manager = try #require(edited["TaskManager.swift"])
        #expect(manager.contains("let taskStore: TaskManager.Shims.TaskStore\n"))
        #expect(manager.contains("init(db: any DB, taskStore: TaskManager.Shims.TaskStore = TaskManager.Wrappers.TaskStore(TaskStore()))"))
        #expect(!manager.contains("let store = TaskStore()"))
        #expect(manager.contains("try self.taskStore.name(id: 1, tx)"))
    }

    /// The commonest GRDB shape: a manager opens `dbPool.read { db in … }`
    /// itself. Once it holds the adopted `SQLiteDB` (`sqlite`, the step
    /// --apply asks for), --apply bridges inside the block with the
    /// reverse bridge, whose default name does not collide with GRDB's `db`.
    @Test func aPoolBlockIsBridgedInsideWithTheReverseBridge() throws {
        let edited = try Self.apply([("TaskManager.swift", """
            import GRDB
            import TransactionKitSQLite
            final class TaskManager {
                let dbPool: DatabasePool
                let sqlite: SQLiteDB
                let store: TaskStore
                init(dbPool: DatabasePool, sqlite: SQLiteDB, store: TaskStore = TaskStore()) {
                    self.dbPool = dbPool
                    self.sqlite = sqlite
                    self.store = store
                }
                func title() throws -> String? {
                    try dbPool.read { db in try store.name(id: 1, db: db) }
                }
                func other() throws -> String? {
                    try dbPool.write { db in
                        let tx = try sqlite.writeTransaction(bridging: db)
                        _ = tx
                        return try store.name(id: 2, db: db)
                    }
                }
            }
            """)])
        let manager = try #require(edited["TaskManager.swift"])
        #expect(manager.contains("try dbPool.read { db in try store.name(id: 1, try sqlite.readTransaction(bridging: db)) }"))
        // What a person wrote in the block is used.
        #expect(manager.contains("return try store.name(id: 2, tx)"))
    }

    /// Without the adopted database, the refusal says the one step.
    @Test func aPoolBlockWithoutTheAdoptedDatabaseAsksForIt() throws {
        let error = #expect(throws: GeneratorError.self) {
            try Self.apply([("TaskManager.swift", """
                import GRDB
                final class TaskManager {
                    let dbPool: DatabasePool
                    let store = TaskStore()
                    init(dbPool: DatabasePool) { self.dbPool = dbPool }
                    func title() throws -> String? { try dbPool.read { db in try store.name(id: 1, db: db) } }
                }
                """)])
        }
        let message = try #require(error).description
        #expect(message.contains("as a stored property `sqlite`"))
        #expect(message.contains("`try sqlite.readTransaction(bridging: db)`"))
    }

    /// A manager that receives GRDB's connection from its caller and
    /// holds the adopted database bridges it the same way.
    @Test func aReceivedConnectionIsBridgedWhenTheConsumerHoldsTheAdoptedDatabase() throws {
        let edited = try Self.apply([("TaskManager.swift", """
            import GRDB
            import TransactionKitSQLite
            final class TaskManager {
                let sqlite: SQLiteDB
                let store = TaskStore()
                init(sqlite: SQLiteDB) { self.sqlite = sqlite }
                func title(db: Database) throws -> String? { try store.name(id: 1, db: db) }
            }
            """)])
        let manager = try #require(edited["TaskManager.swift"])
        #expect(manager.contains("func title(db: Database) throws -> String? { try store.name(id: 1, try sqlite.readTransaction(bridging: db)) }"))
    }

    /// A `Sendable` consumer that makes a non-`Sendable` finder on the spot
    /// keeps its conformance: its wrapper makes the finder for each call,
    /// as the consumer did, and holds only a `@Sendable` closure, so the
    /// shim is `Sendable` with no unchecked claim.
    @Test func aSendableConsumerOfANonSendableFinderGetsAWrapperThatMakesOnePerCall() throws {
        let cache = "import GRDB\nfinal class Cache {\n    var rows: [Int64: String] = [:]\n    init() {}\n    func name(id: Int64, db: Database) throws -> String? { rows[id] }\n    static func shared() -> Cache { Cache() }\n}\n"
        let manager = """
            final class TaskManager: Sendable {
                let db: any DB

                init(db: any DB) {
                    self.db = db
                }
                func title() throws -> String? {
                    let cache = CACHE
                    return try db.read { tx in try cache.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx)) }
                }
                func other() throws -> String? {
                    try db.read { tx in try CACHE.name(id: 2, db: try SQLiteDB.shimOnlyBridge(tx)) }
                }
            }
            """
        let tree = try InlineTree([("Cache.swift", cache), ("TaskManager.swift", manager.replacingOccurrences(of: "CACHE", with: "Cache()"))],
                                  transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let edits = try tree.generator.shim(consumer: "TaskManager", legacy: "Cache").edits.get()
        #expect(edits.first?.edited == """
            final class TaskManager: Sendable {
                let db: any DB
                let cache: TaskManager.Shims.Cache

                init(db: any DB, cache: TaskManager.Shims.Cache = TaskManager.Wrappers.Cache()) {
                    self.db = db
                    self.cache = cache
                }
                func title() throws -> String? {
                    return try db.read { tx in try self.cache.name(id: 1, tx) }
                }
                func other() throws -> String? {
                    try db.read { tx in try self.cache.name(id: 2, tx) }
                }
            }
            """)
        #expect(try tree.shim("TaskManager", "Cache").contains("protocol TaskManager_CacheShim: Sendable {"))
        let wrapper = try tree.wrapper("TaskManager", "Cache")
        #expect(!wrapper.contains("@unchecked Sendable"))
        #expect(wrapper.contains("""
            struct TaskManager_CacheWrapper: TaskManager_CacheShim {
                private let make: @Sendable () -> Cache

                /// Creates the wrapper, which makes a new `Cache` for each call.
                init() {
                    make = { Cache() }
                }

                /// Creates the wrapper, which calls `make` for each call (`{ Cache.shared() }`).
                init(making make: @escaping @Sendable () -> Cache) {
                    self.make = make
                }

                /// Forwards to `Cache.name(id:db:)`.
                func name(id: Int64, _ tx: DBReadTransaction) throws -> String? {
                    try make().name(id: id, db: try SQLiteDB.shimOnlyBridge(tx))
                }
            }
            """))

        // Generated again from the migrated consumer (`--check`), the same wrapper.
        let migrated = try InlineTree([("Cache.swift", cache), ("TaskManager.swift", try #require(edits.first?.edited))],
                                      transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(try migrated.wrapper("TaskManager", "Cache") == wrapper)
        #expect(try migrated.shim("TaskManager", "Cache") == tree.shim("TaskManager", "Cache"))

        // Through a factory, the factory is what the closure calls.
        let shared = try InlineTree(
            [("Cache.swift", cache), ("TaskManager.swift", manager.replacingOccurrences(of: "CACHE", with: "Cache.shared()"))],
            transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let sharedEdits = try shared.generator.shim(consumer: "TaskManager", legacy: "Cache").edits.get()
        #expect(sharedEdits.first?.edited.contains(
            "init(db: any DB, cache: TaskManager.Shims.Cache = TaskManager.Wrappers.Cache(making: { Cache.shared() })) {") == true)
    }

    /// A `Sendable` consumer whose method takes the non-`Sendable` finder
    /// as a parameter cannot get a wrapper that makes one per call (its
    /// callers pass one), and one that only asserts it is safe
    /// (`@unchecked Sendable`, `nonisolated(unsafe)`) holds the finder as
    /// before: the shim is not `Sendable`, the consumer's claim covers it.
    @Test func aSendableConsumerThatIsGivenANonSendableFinderKeepsItsOwnClaim() throws {
        let cache = "import GRDB\nfinal class Cache {\n    init() {}\n    func name(id: Int64, db: Database) throws -> String? { nil }\n}\n"
        let parameter = try InlineTree([("Cache.swift", cache), ("TaskManager.swift", """
            final class TaskManager: Sendable {
                let db: any DB
                init(db: any DB) { self.db = db }
                func title(cache: Cache) throws -> String? {
                    try db.read { tx in try cache.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx)) }
                }
                func other() throws -> String? {
                    try db.read { tx in try Cache().name(id: 2, db: try SQLiteDB.shimOnlyBridge(tx)) }
                }
            }
            """)], transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let error = #expect(throws: GeneratorError.self) { try parameter.generator.shim(consumer: "TaskManager", legacy: "Cache").edits.get() }
        #expect(try #require(error).description.contains("takes one as its parameter `cache`, which such a wrapper cannot hold"))

        for declaration in ["final class TaskManager: @unchecked Sendable {\n    let cache = Cache()",
                            "final class TaskManager: Sendable {\n    nonisolated(unsafe) let cache = Cache()"] {
            let tree = try InlineTree([("Cache.swift", cache), ("TaskManager.swift", declaration + """

                    let db: any DB
                    init(db: any DB) { self.db = db }
                    func title() throws -> String? {
                        try db.read { tx in try cache.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx)) }
                    }
                }
                """)], transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
            #expect(try tree.shim("TaskManager", "Cache").contains("protocol TaskManager_CacheShim {"))
            #expect(try tree.wrapper("TaskManager", "Cache").contains("private let wrapped: Cache"))
            let edited = try #require(try tree.generator.shim(consumer: "TaskManager", legacy: "Cache").edits.get().first?.edited)
            #expect(edited.contains("let cache: TaskManager.Shims.Cache\n"))
        }
    }

    /// A finder that spells the legacy transaction through its own
    /// typealias is a legacy type: inventory lists it and shim sees that
    /// it takes the legacy transaction.
    @Test func aLegacyTransactionSpelledThroughAFindersTypealiasIsOne() throws {
        let store = """
            import GRDB
            final class TaskStore: Sendable {
                typealias ReadConnection = Database
                init() {}
                func name(id: Int64, db: ReadConnection) throws -> String? { nil }
            }
            """
        let tree = try InlineTree([("TaskStore.swift", store), ("TaskManager.swift", Self.consumer)],
                                  transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(tree.generator.inventory().legacyTypes == ["TaskStore"])
        #expect(try tree.requirements("TaskManager", "TaskStore") == ["func name(id: Int64, _ tx: DBReadTransaction) throws -> String?"])
        let edits = try tree.generator.shim(consumer: "TaskManager", legacy: "TaskStore").edits.get()
        #expect(edits.first?.edited.contains("try store.name(id: 1, tx)") == true)
        // Received as GRDB's Database by a manager of an app that adopts its
        // pool: bridged through the type.
        let received = try InlineTree([
            ("TaskStore.swift", store),
            ("App.swift", "import TransactionKitSQLite\nfunc start(pool: DatabasePool) throws -> SQLiteDB { try SQLiteDB(adopting: pool) }\n"),
            ("TaskManager.swift", """
                import GRDB
                final class TaskManager {
                    let store = TaskStore()
                    init() {}
                    func title(db: Database) throws -> String? { try store.name(id: 1, db: db) }
                }
                """),
        ], transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let bridged = try received.generator.shim(consumer: "TaskManager", legacy: "TaskStore").edits.get()
        #expect(bridged.first?.edited.contains("try store.name(id: 1, try SQLiteDB.readTransaction(bridging: db))") == true)
    }

    /// Bridged inside a DatabaseQueue's `read`, the transaction is a read
    /// whose end the adopted database sees, so the next transaction is not
    /// taken for a nested one (AdoptionBehaviourTests): --apply bridges in
    /// the queue's read and write blocks alike.
    @Test func aDatabaseQueueReadBlockIsBridgedLikeAWriteBlock() throws {
        let manager = """
            import GRDB
            import TransactionKitSQLite
            final class TaskManager {
                let dbQueue: DatabaseQueue
                let sqlite: SQLiteDB
                let store = TaskStore()
                init(dbQueue: DatabaseQueue, sqlite: SQLiteDB) {
                    self.dbQueue = dbQueue
                    self.sqlite = sqlite
                }
                func title() throws -> String? { try dbQueue.BLOCK { db in try store.name(id: 1, db: db) } }
            }
            """
        let read = try Self.apply([("TaskManager.swift", manager.replacingOccurrences(of: "BLOCK", with: "read"))])
        #expect(read["TaskManager.swift"]?.contains("try store.name(id: 1, try sqlite.readTransaction(bridging: db))") == true)
        let edited = try Self.apply([("TaskManager.swift", manager.replacingOccurrences(of: "BLOCK", with: "write"))])
        #expect(edited["TaskManager.swift"]?.contains("try store.name(id: 1, try sqlite.readTransaction(bridging: db))") == true)
    }

    /// A finder member that does not throw, called in a pool block
    /// (`try dbPool.read { db in store.count(db: db) }`): the block holds
    /// no `try`, yet GRDB's and TransactionKit's blocks take throwing
    /// closures, so the call gets its `try`.
    @Test func aNonThrowingMemberInAPoolBlockGetsItsTry() throws {
        let tree = try InlineTree([
            ("TaskStore.swift", "import GRDB\nfinal class TaskStore: Sendable {\n    init() {}\n    func count(db: Database) -> Int { 0 }\n}\n"),
            ("TaskManager.swift", """
                import GRDB
                import TransactionKitSQLite
                final class TaskManager {
                    let dbPool: DatabasePool
                    let sqlite: SQLiteDB
                    let store = TaskStore()
                    init(dbPool: DatabasePool, sqlite: SQLiteDB) {
                        self.dbPool = dbPool
                        self.sqlite = sqlite
                    }
                    func total() throws -> String {
                        return try dbPool.read { db in
                            String(describing: store.count(db: db))
                        }
                    }
                }
                """),
        ], transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let edits = try tree.generator.shim(consumer: "TaskManager", legacy: "TaskStore").edits.get()
        let manager = try #require(edits.first { $0.path == "TaskManager.swift" }?.edited)
        #expect(manager.contains("String(describing: try store.count(try sqlite.readTransaction(bridging: db)))"))
    }

    /// A consumer method that does not throw and receives the legacy
    /// transaction: the shim throws (its bridge can, and so can the lookup
    /// of the adopted database), so --apply marks the method `throws` and
    /// `try`s its callers in the sources, here all in throwing code.
    @Test func aMethodThatDoesNotThrowIsMarkedThrowingAndItsCallersTry() throws {
        let store = "import GRDB\nfinal class TaskStore: Sendable {\n    init() {}\n    func count(db: Database) -> Int { 0 }\n}\n"
        let manager = """
            import GRDB
            import TransactionKitSQLite
            final class TaskManager {
                let sqlite: SQLiteDB
                let store = TaskStore()

                init(sqlite: SQLiteDB) {
                    self.sqlite = sqlite
                }
                func total(db: Database) -> String { String(describing: store.count(db: db)) }
                func twice(db: Database) throws -> String { total(db: db) + self.total(db: db) }
            }
            """
        let entry = """
            import GRDB
            func report(pool: DatabasePool, manager: TaskManager) throws -> [String] {
                var lines = [try pool.read { db in manager.total(db: db) }]
                let other = TaskManager(sqlite: manager.sqlite)
                lines.append(try pool.read { db in other.total(db: db) + "!" })
                return lines
            }
            """
        let tree = try InlineTree([("TaskStore.swift", store), ("TaskManager.swift", manager), ("Entry.swift", entry)],
                                  transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let edits = try tree.generator.shim(consumer: "TaskManager", legacy: "TaskStore").edits.get()
        let edited = Dictionary(uniqueKeysWithValues: edits.map { ($0.path, $0.edited) })
        #expect(edited["TaskManager.swift"] == """
            import GRDB
            import TransactionKitSQLite
            final class TaskManager {
                let sqlite: SQLiteDB
                let store: TaskManager.Shims.TaskStore

                init(sqlite: SQLiteDB, store: TaskManager.Shims.TaskStore = TaskManager.Wrappers.TaskStore()) {
                    self.sqlite = sqlite
                    self.store = store
                }
                func total(db: Database) throws -> String { String(describing: try store.count(try sqlite.readTransaction(bridging: db))) }
                func twice(db: Database) throws -> String { try total(db: db) + self.total(db: db) }
            }
            """)
        #expect(edited["Entry.swift"] == """
            import GRDB
            func report(pool: DatabasePool, manager: TaskManager) throws -> [String] {
                var lines = [try pool.read { db in try manager.total(db: db) }]
                let other = TaskManager(sqlite: manager.sqlite)
                lines.append(try pool.read { db in try other.total(db: db) + "!" })
                return lines
            }
            """)
        #expect(try tree.requirements("TaskManager", "TaskStore") == ["func count(_ tx: DBReadTransaction) throws -> Int"])
    }

    /// A call in a closure passed to a collection's rethrowing method
    /// (the corpus's ShelfOrganizer, which `--apply` refused): the
    /// closure's explicit signature says `throws` and the call it is passed
    /// to is tried. A closure passed to a `map` of a value whose type the
    /// sources do not show as a collection stays refused.
    @Test func aCallInAClosureOfACollectionsRethrowingMethodMakesTheClosureThrow() throws {
        let store = "import GRDB\nfinal class TaskStore: Sendable {\n    init() {}\n    func name(id: Int, db: Database) -> String? { nil }\n}\n"
        let manager = """
            import GRDB
            import TransactionKit
            import TransactionKitSQLite
            final class TaskManager {
                let db: any DB
                let store = TaskStore()

                init(db: any DB) {
                    self.db = db
                }
                func names(_ ids: [Int]) throws -> [String] {
                    try db.read { tx in
                        let connection = try SQLiteDB.shimOnlyBridge(tx)
                        let names = ids.compactMap { (id: Int) -> String? in
                            store.name(id: id, db: connection)
                        }
                        let first = ids.first.map { id in store.name(id: id, db: connection) }
                        return names + [first ?? nil].compactMap { $0 }
                    }
                }
            }
            """
        let tree = try InlineTree([("TaskStore.swift", store), ("TaskManager.swift", manager)],
                                  transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let edits = try tree.generator.shim(consumer: "TaskManager", legacy: "TaskStore").edits.get()
        let edited = Dictionary(uniqueKeysWithValues: edits.map { ($0.path, $0.edited) })
        #expect(edited["TaskManager.swift"] == """
            import GRDB
            import TransactionKit
            import TransactionKitSQLite
            final class TaskManager {
                let db: any DB
                let store: TaskManager.Shims.TaskStore

                init(db: any DB, store: TaskManager.Shims.TaskStore = TaskManager.Wrappers.TaskStore()) {
                    self.db = db
                    self.store = store
                }
                func names(_ ids: [Int]) throws -> [String] {
                    try db.read { tx in
                        let names = try ids.compactMap { (id: Int) throws -> String? in
                            try store.name(id: id, tx)
                        }
                        let first = try ids.first.map { id in try store.name(id: id, tx) }
                        return names + [first ?? nil].compactMap { $0 }
                    }
                }
            }
            """)

        let publisher = """
            import GRDB
            import TransactionKit
            import TransactionKitSQLite
            final class TaskManager {
                let db: any DB
                let store = TaskStore()

                init(db: any DB) {
                    self.db = db
                }
                func names(_ ids: Published<Int>.Publisher) throws {
                    try db.read { tx in
                        let connection = try SQLiteDB.shimOnlyBridge(tx)
                        _ = ids.map { (id: Int) -> String? in store.name(id: id, db: connection) }
                    }
                }
            }
            """
        let other = try InlineTree([("TaskStore.swift", store), ("TaskManager.swift", publisher)],
                                   transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let error = #expect(throws: GeneratorError.self) {
            try other.generator.shim(consumer: "TaskManager", legacy: "TaskStore").edits.get()
        }
        #expect(try #require(error).description.contains("is in a closure, and its shim throws"))
    }

    /// Where a caller of the method could not simply add `try`, or could
    /// be missed, --apply still refuses, naming the method and the reason.
    @Test func aMethodThatDoesNotThrowIsRefusedWhereItsCallersCannotThrow() throws {
        let store = "import GRDB\nfinal class TaskStore: Sendable {\n    init() {}\n    func count(db: Database) -> Int { 0 }\n}\n"
        let manager = """
            import GRDB
            import TransactionKitSQLite
            final class TaskManager {
                let sqlite: SQLiteDB
                let store = TaskStore()
                init(sqlite: SQLiteDB) { self.sqlite = sqlite }
                MODIFIERfunc total(db: Database) -> String { String(describing: store.count(db: db)) }
            }
            """
        let refusal = { (modifier: String, entry: String) throws -> String in
            let tree = try InlineTree([
                ("TaskStore.swift", store),
                ("TaskManager.swift", manager.replacingOccurrences(of: "MODIFIER", with: modifier)),
                ("Entry.swift", entry),
            ], transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
            let error = #expect(throws: GeneratorError.self) { try tree.generator.shim(consumer: "TaskManager", legacy: "TaskStore").edits.get() }
            return try #require(error).description
        }
        let nonThrowingCaller = try refusal("", "import GRDB\nfunc report(manager: TaskManager, db: Database) -> String {\n    manager.total(db: db)\n}\n")
        #expect(nonThrowingCaller.contains("TaskManager.swift:7"))
        #expect(nonThrowingCaller.contains("its call at Entry.swift:3 is in a function that does not throw"))
        let closure = try refusal("", "import GRDB\nfunc report(manager: TaskManager, db: Database) throws -> [String] {\n    [db].map { manager.total(db: $0) }\n}\n")
        #expect(closure.contains("its call at Entry.swift:3 is in a closure that does not throw"))
        let reference = try refusal("", "import GRDB\nfunc report(manager: TaskManager) -> (Database) -> String {\n    manager.total(db:)\n}\n")
        #expect(reference.contains("referenced without being called at Entry.swift:3"))
        let exposed = try refusal("public ", "")
        #expect(exposed.contains("it is `public`: callers outside the sources would not get `try`"))
    }

    /// `var store: TaskStore?` becomes the optional shim, its initializer parameter too, and the
    /// callers wrap the instance they pass (nil stays nil).
    @Test func anOptionalStoredPropertyBecomesAnOptionalShim() throws {
        let edited = try Self.apply([
            ("TaskManager.swift", """
                final class TaskManager {
                    var store: TaskStore?
                    init(store: TaskStore?) { self.store = store }
                    func title(_ tx: DBReadTransaction) throws -> String? {
                        try store?.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx))
                    }
                }
                """),
            ("Wiring.swift", """
                enum Wiring {
                    static func manager() -> TaskManager { TaskManager(store: TaskStore()) }
                    static func none() -> TaskManager { TaskManager(store: nil) }
                }
                """),
        ])
        let manager = try #require(edited["TaskManager.swift"])
        #expect(manager.contains("var store: TaskManager.Shims.TaskStore?\n"))
        #expect(manager.contains("init(store: TaskManager.Shims.TaskStore?) { self.store = store }"))
        #expect(manager.contains("try store?.name(id: 1, tx)"))
        let wiring = try #require(edited["Wiring.swift"])
        #expect(wiring.contains("TaskManager(store: TaskManager.Wrappers.TaskStore())"))
        #expect(wiring.contains("TaskManager(store: nil)"))
        // A value that may or may not be optional: refused, with the place.
        let error = #expect(throws: GeneratorError.self) {
            try Self.apply([
                ("TaskManager.swift", """
                    final class TaskManager {
                        var store: TaskStore?
                        init(store: TaskStore?) { self.store = store }
                        func title(_ tx: DBReadTransaction) throws -> String? {
                            try store?.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx))
                        }
                    }
                    """),
                ("Wiring.swift", "enum Wiring {\n    static func manager(_ s: TaskStore?) -> TaskManager { TaskManager(store: s) }\n}\n"),
            ])
        }
        #expect(try #require(error).description.contains("Wiring.swift:2"))
    }

    /// `weak var store: TaskStore?` becomes a computed shim property over
    /// the wrapper's `WeakReference`, which holds the production instance
    /// weakly, so the property still reads `nil` once the instance is
    /// released; the initializer sets the reference itself (it may run
    /// before the other stored properties are set). `unowned` is still
    /// refused, with why.
    @Test func aWeakStoredPropertyKeepsHoldingTheInstanceWeakly() throws {
        let consumer = { (modifier: String) in ("TaskManager.swift", """
            final class TaskManager {
                private \(modifier) var store: TaskStore?
                let name: String
                init(store: TaskStore) {
                    self.store = store
                    self.name = "m"
                }
                func title(_ tx: DBReadTransaction) throws -> String? {
                    try store?.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx))
                }
            }
            """) }
        let wiring = ("Wiring.swift", "enum Wiring {\n    static func manager(_ s: TaskStore) -> TaskManager { TaskManager(store: s) }\n}\n")
        let edited = try Self.apply([consumer("weak"), wiring])
        let manager = try #require(edited["TaskManager.swift"])
        #expect(manager.contains("""
                private var store: TaskManager.Shims.TaskStore? {
                    get { storeReference.shim }
                    set { storeReference = TaskManager.Wrappers.TaskStore.WeakReference(newValue) }
                }
                private var storeReference = TaskManager.Wrappers.TaskStore.WeakReference()
            """))
        #expect(manager.contains("init(store: TaskManager.Shims.TaskStore) {"))
        #expect(manager.contains("self.storeReference = TaskManager.Wrappers.TaskStore.WeakReference(store)"))
        #expect(manager.contains("try store?.name(id: 1, tx)"))
        #expect(try #require(edited["Wiring.swift"]).contains("TaskManager(store: TaskManager.Wrappers.TaskStore(s))"))

        // The wrapper declares the reference type, for this consumer only,
        // before and after --apply (so that --check keeps it).
        let tree = try InlineTree([("TaskStore.swift", Self.store), consumer("weak")],
                                  transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let wrapper = { (tree: InlineTree) in
            try tree.generator.shim(consumer: "TaskManager", legacy: "TaskStore").files
                .first { $0.path.hasSuffix("TaskManager_TaskStoreWrapper.swift") }?.contents ?? ""
        }
        #expect(try wrapper(tree).contains("struct WeakReference {"))
        #expect(try wrapper(tree).contains("private weak var instance: TaskStore?"))
        let applied = try InlineTree([("TaskStore.swift", Self.store), ("TaskManager.swift", manager)],
                                     transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(try wrapper(applied) == wrapper(tree))
        let strong = try InlineTree([("TaskStore.swift", Self.store), ("TaskManager.swift", Self.consumer)],
                                    transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(try !wrapper(strong).contains("WeakReference"))

        // convert retires the wrapper, and its WeakReference with it: it
        // refuses, at the property (the fuzzer's convert oracle found the
        // build broken: `TaskStore.WeakReference`).
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [.init(type: "Database", transaction: .infer, bridge: "try SQLiteDB.shimOnlyBridge($tx)")]
        let generated = try tree.generator.shim(consumer: "TaskManager", legacy: "TaskStore").files.map { ($0.path, $0.contents) }
        let conversion = try Generator(
            configuration: configuration,
            sources: SourceSet(sources: ([("TaskStore.swift", Self.store), ("TaskManager.swift", manager)] + generated)
                .map { (path: $0.0, text: $0.1) })
        ).convert(legacy: "TaskStore")
        let blocker = try #require(conversion.blockers.first { $0.sentence.contains("WeakReference") })
        #expect(blocker.location == SourceLocation(path: "TaskManager.swift", line: 6))

        let error = #expect(throws: GeneratorError.self) { try Self.apply([consumer("unowned(safe)")]) }
        #expect(try #require(error).description.contains("store is an unowned(safe) reference to TaskStore"))
    }

    /// `Services.shared.store.name(…)` is routed: a chain of
    /// constants (`static let`, then stored `let`s) gives the same
    /// instance every time, so the shim property holds it from the
    /// consumer's initialization on; the inventory counts the consumer,
    /// not `Services`, which only holds the finder (wiring).
    @Test func aChainOfConstantsIsRoutedAndItsHolderIsWiring() throws {
        let services = ("Services.swift", """
            final class Services: Sendable {
                static let shared = Services()
                let store = TaskStore()
                var spare: TaskStore { TaskStore() }
                init() {}
            }
            """)
        let manager = { (chain: String) in ("TaskManager.swift", """
            final class TaskManager {
                init() {}
                func title(_ tx: DBReadTransaction) throws -> String? {
                    try \(chain).name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx))
                }
            }
            """) }
        let edited = try Self.apply([services, manager("Services.shared.store")])
        let text = try #require(edited["TaskManager.swift"])
        #expect(text.contains("init(taskStore: TaskManager.Shims.TaskStore = TaskManager.Wrappers.TaskStore(Services.shared.store))"))
        #expect(text.contains("try self.taskStore.name(id: 1, tx)"))
        // A computed link may give a new instance each time: refused.
        #expect(throws: GeneratorError.self) { try Self.apply([services, manager("Services.shared.spare")]) }
        let tree = try InlineTree([("TaskStore.swift", Self.store), services, manager("Services.shared.store")],
                                  transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(Set(tree.generator.inventory().uses.map { "\($0.consumer) → \($0.type)" }) == ["TaskManager → TaskStore"])
    }

    /// `environment.store.name(…)`, where `environment` is the consumer's
    /// own stored `let` and `store` a stored `let` of its type, is routed
    /// (the corpus' Chatter `ContactManager`): the shim property takes an
    /// optional initializer parameter, and without one the wrapper of
    /// `self.environment.store`, assigned after `environment`; a `var` link,
    /// or an initializer that assigns `environment` late, is refused.
    @Test func aChainFromTheConsumersOwnConstantIsRouted() throws {
        let environment = { (binding: String) in ("Environment.swift", """
            struct Environment {
                \(binding) store: TaskStore
                init(store: TaskStore = TaskStore()) { self.store = store }
            }
            """) }
        let manager = { (body: String) in ("TaskManager.swift", """
            final class TaskManager {
                let environment: Environment
                init(environment: Environment = Environment()) {
                    \(body)
                }
                func title(_ tx: DBReadTransaction) throws -> String? {
                    try environment.store.name(id: 1, db: try SQLiteDB.shimOnlyBridge(tx))
                }
            }
            """) }
        let edited = try Self.apply([environment("let"), manager("self.environment = environment")])
        let text = try #require(edited["TaskManager.swift"])
        #expect(text.contains("let taskStore: TaskManager.Shims.TaskStore\n"))
        #expect(text.contains(
            "init(environment: Environment = Environment(), taskStore: TaskManager.Shims.TaskStore? = nil)"))
        #expect(text.contains("""
                    self.environment = environment
                    self.taskStore = taskStore ?? TaskManager.Wrappers.TaskStore(self.environment.store)
            """))
        #expect(text.contains("try self.taskStore.name(id: 1, tx)"))

        let settable = #expect(throws: GeneratorError.self) {
            try Self.apply([environment("var"), manager("self.environment = environment")])
        }
        #expect(try #require(settable).description.contains("through `environment.store`"))
        let late = #expect(throws: GeneratorError.self) {
            try Self.apply([environment("let"), manager("print(1)\n        self.environment = environment")])
        }
        #expect(try #require(late).description.contains("does not assign environment among the assignments"))
    }

    /// A generic member constrained by GRDB's `DatabaseValueConvertible`,
    /// whose shim file leaves GRDB out (an excluded import): the shim
    /// declares one requirement per type the consumer passes as a metatype
    /// (`as: String.self`), without generics, and the wrapper's call infers
    /// `T`; a call that does not name its type is still refused, and a
    /// constraint the sources or the standard library declare is kept.
    @Test func aGenericMemberConstrainedByAnExcludedImportIsSpecialized() throws {
        let store = { (constraint: String) in """
            import GRDB
            final class TaskStore: Sendable {
                init() {}
                func value<T: \(constraint)>(id: Int64, as type: T.Type, db: Database) throws -> T? { nil }
            }
            """ }
        let consumer = { (calls: String) in """
            final class TaskManager {
                let store = TaskStore()
                init() {}
                func title(_ tx: DBReadTransaction) throws -> String? {
                    \(calls)
                }
            }
            """ }
        let twoTypes = consumer("""
            _ = try store.value(id: 1, as: Int64.self, db: try SQLiteDB.shimOnlyBridge(tx))
                    return try store.value(id: 1, as: String.self, db: try SQLiteDB.shimOnlyBridge(tx))
            """)
        let specialized = try InlineTree(
            [("TaskStore.swift", store("DatabaseValueConvertible")), ("TaskManager.swift", twoTypes)],
            transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(try specialized.requirements("TaskManager", "TaskStore") == [
            "func value(id: Int64, as type: Int64.Type, _ tx: DBReadTransaction) throws -> Int64?",
            "func value(id: Int64, as type: String.Type, _ tx: DBReadTransaction) throws -> String?",
        ])
        #expect(try specialized.wrapper("TaskManager", "TaskStore")
            .contains("try wrapped.value(id: id, as: type, db: try SQLiteDB.shimOnlyBridge(tx))"))
        let edits = try specialized.generator.shim(consumer: "TaskManager", legacy: "TaskStore").edits.get()
        let edited = try #require(edits.first { $0.path == "TaskManager.swift" }).edited
        #expect(edited.contains("return try self.store.value(id: 1, as: String.self, tx)")
            || edited.contains("return try store.value(id: 1, as: String.self, tx)"))

        let inferred = try InlineTree(
            [("TaskStore.swift", store("DatabaseValueConvertible")),
             ("TaskManager.swift", consumer("let name: String? = try store.value(id: 1, as: type(of: \"\"), db: try SQLiteDB.shimOnlyBridge(tx))\n        return name"))],
            transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let error = #expect(throws: GeneratorError.self) { try inferred.shim("TaskManager", "TaskStore") }
        #expect(try #require(error).description.contains("constrains its generic parameters with DatabaseValueConvertible"))
        #expect(try #require(error).description.contains("names its type with a metatype argument"))

        let kept = try InlineTree(
            [("TaskStore.swift", store("Decodable")),
             ("TaskManager.swift", consumer("try store.value(id: 1, as: String.self, db: try SQLiteDB.shimOnlyBridge(tx))"))],
            transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(try kept.shim("TaskManager", "TaskStore").contains("func value<T: Decodable>("))
    }

    /// The configuration of the fuzzer's programs that take GRDB's `Database`.
    static var databaseConfiguration: GeneratorConfiguration {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [.init(type: "Database", transaction: .infer, bridge: "try SQLiteDB.shimOnlyBridge($tx)")]
        return configuration
    }

    /// The sources after `shim --apply` of one pair, in memory.
    static func shimmed(_ files: [(String, String)], consumer: String, legacy: String) throws -> [(path: String, text: String)] {
        let generator = try Generator(
            configuration: databaseConfiguration, sources: SourceSet(sources: files.map { (path: $0.0, text: $0.1) }))
        let plan = try generator.plan(consumer: consumer, legacy: legacy)
        let edited = Dictionary(uniqueKeysWithValues: try generator.rewrite(plan).map { ($0.path, $0.edited) })
        return files.map { (path: $0.0, text: edited[$0.0] ?? $0.1) } + generator.render(plan).map { (path: $0.path, text: $0.contents) }
    }

    /// A consumer migrated to its shim called a member the finder gets
    /// from an extension of a protocol of the app: `convert --apply` gave
    /// it `any TaskStoreFinding`, which has only the finder's own members,
    /// and the call would not build: it is refused, with the call and why;
    /// a member of a superclass likewise.
    @Test func aConversionRefusesACallOfAnInheritedMemberThroughAShim() throws {
        let store = """
            import GRDB
            final class TaskStore: TaskStoreQueries {
                init() {}
                func name(id: Int64, _ db: Database) -> String? { nil }
            }
            protocol TaskStoreQueries {}
            extension TaskStoreQueries {
                func count(prefix: String, transaction db: Database) throws -> Int { 0 }
            }
            """
        let manager = """
            import GRDB
            import TransactionKit
            import TransactionKitSQLite
            final class TaskManager {
                let db: any DB
                init(db: any DB) { self.db = db }
                func m0(taskStore: TaskStore) throws -> String {
                    return try db.read { tx in
                        return String(describing: try taskStore.count(prefix: "n", transaction: try SQLiteDB.shimOnlyBridge(tx)))
                    }
                }
            }
            """
        let sources = try Self.shimmed([("TaskStore.swift", store), ("TaskManager.swift", manager)],
                                       consumer: "TaskManager", legacy: "TaskStore")
        #expect(sources.contains { $0.text.contains("taskStore.count(prefix: \"n\", tx)") })
        let conversion = try Generator(configuration: Self.databaseConfiguration, sources: SourceSet(sources: sources))
            .convert(legacy: "TaskStore")
        #expect(conversion.blockers.contains {
            $0.sentence.contains("uses count(prefix:transaction:), which TaskStore gets from an extension of the protocol TaskStoreQueries")
        })

        let inherited = try Self.shimmed(
            [("TaskStore.swift", store.replacingOccurrences(of: "final class TaskStore: TaskStoreQueries {", with: "final class TaskStore: TaskStoreBase {")
                .replacingOccurrences(of: "    init() {}", with: "    override init() {}")
                .replacingOccurrences(of: "protocol TaskStoreQueries {}\nextension TaskStoreQueries {", with: "open class TaskStoreBase {\n    init() {}")),
             ("TaskManager.swift", manager)],
            consumer: "TaskManager", legacy: "TaskStore")
        let refused = try Generator(configuration: Self.databaseConfiguration, sources: SourceSet(sources: inherited))
            .convert(legacy: "TaskStore")
        #expect(refused.blockers.contains { $0.sentence.contains("which TaskStore inherits from TaskStoreBase") })
    }

    /// An actor finder is `Sendable` without saying so: its Good-Way
    /// protocol is `Sendable`, or a `Sendable` consumer holding
    /// `any UserFinding` would not build after `convert --apply`.
    @Test func theProtocolOfAnActorFinderIsSendable() throws {
        let finder = """
            import GRDB
            actor UserFinder {
                init() {}
                nonisolated func name(id: Int64, _ db: Database) -> String? { nil }
            }
            """
        let manager = """
            import GRDB
            final class TaskManager: Sendable {
                let userFinder = UserFinder()
                init() {}
                func m0(db: Database) -> String {
                    String(describing: userFinder.name(id: 2, db))
                }
            }
            """
        let conversion = try Generator(
            configuration: Self.databaseConfiguration,
            sources: SourceSet(sources: [(path: "UserFinder.swift", text: finder), (path: "TaskManager.swift", text: manager)])
        ).convert(legacy: "UserFinder")
        let protocolFile = try #require(conversion.files.first { $0.path.hasSuffix("UserFinding.swift") })
        #expect(protocolFile.contents.contains("protocol UserFinding: Sendable {"))
    }

    /// An async consumer awaits an actor finder's isolated property: the
    /// shim's requirement is `get async` and the wrapper awaits it (it was
    /// refused; fuzzer P1039 of seed 20261128700 was refused for it). An
    /// isolated member taking a legacy transaction is still refused (the
    /// connection would be sent into the actor), as is `convert` of the
    /// actor; a `let` constant of the actor stays synchronous.
    @Test func aMemberIsolatedToAnActorFinderIsAwaitedThroughItsShim() throws {
        let store = { (label: String) in """
            import GRDB
            actor TaskStore {
                init() {}
                \(label)
                nonisolated func count(prefix: String, _ db: Database) async throws -> Int { 0 }
            }
            """ }
        let consumer = """
            import TransactionKit
            import TransactionKitSQLite
            final class ProfileService: Sendable {
                let db: any AsyncDB
                let taskStore: TaskStore
                init(db: any AsyncDB, taskStore: TaskStore) {
                    self.db = db
                    self.taskStore = taskStore
                }
                func m1() async throws -> String {
                    try await db.read { tx in
                        String(describing: await taskStore.label) + " "
                            + String(describing: try await taskStore.count(prefix: "n", try SQLiteDB.shimOnlyBridge(tx)))
                    }
                }
            }
            """
        let isolated = try InlineTree([("TaskStore.swift", store("var label: String { \"TaskStore\" }")), ("ProfileService.swift", consumer)],
                                      transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(try isolated.requirements("ProfileService", "TaskStore") == [
            "var label: String { get async }", "func count(prefix: String, _ tx: DBReadTransaction) async throws -> Int",
        ])
        let wrapper = try isolated.wrapper("ProfileService", "TaskStore")
        #expect(wrapper.contains("var label: String { get async { await wrapped.label } }"), "\(wrapper)")

        let withTransaction = try InlineTree([
            ("TaskStore.swift", store("var label: String { \"TaskStore\" }").replacingOccurrences(of: "nonisolated func count", with: "func count")),
            ("ProfileService.swift", consumer),
        ], transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let error = #expect(throws: GeneratorError.self) { try withTransaction.shim("ProfileService", "TaskStore") }
        #expect(try #require(error).description.contains("TaskStore.count(prefix:_:) is a method isolated to the actor TaskStore"))

        // `convert` likewise: the actor could not witness `var label: String { get }`.
        let conversion = try Generator(
            configuration: Self.databaseConfiguration,
            sources: SourceSet(sources: [(path: "TaskStore.swift", text: store("var label: String { \"TaskStore\" }")),
                                         (path: "ProfileService.swift", text: consumer)])
        ).convert(legacy: "TaskStore")
        #expect(conversion.blockers.contains { $0.sentence.contains("TaskStore.label is a property isolated to the actor TaskStore") })

        let constant = try InlineTree([("TaskStore.swift", store("let label = \"TaskStore\"")), ("ProfileService.swift", consumer)],
                                      transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(try constant.requirements("ProfileService", "TaskStore") == [
            "var label: String { get }", "func count(prefix: String, _ tx: DBReadTransaction) async throws -> Int",
        ])
    }
}
#endif
