#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// `--apply` on uses through a parameter of a consumer method declared with
/// the legacy type (`func m0(taskStore: TaskStore)`), which it refused:
/// the fuzzer's commonest refusal (seed 777001, program 4).
@Suite("shim --apply: uses through parameters")
struct ApplyParameterTests {
    static let entry = ("Entry.swift", """
        import GRDB
        import TransactionKitSQLite
        enum Entry {
            static func run(pool: DatabasePool) throws -> [String?] {
                let sqlite = try SQLiteDB(adopting: pool)
                defer { withExtendedLifetime(sqlite) {} }
                let service = ProfileService(dbPool: pool)
                let shared = TaskStore()
                return [try service.title(taskStore: TaskStore()), try service.title(taskStore: shared)]
            }
        }
        """)

    @Test func aParameterIsRetypedAndItsCallersWrapWhatTheyPass() throws {
        let edited = try GeneratorFuzzRegressionTests.apply([Self.entry, ("ProfileService.swift", """
            import GRDB
            final class ProfileService: Sendable {
                let dbPool: DatabasePool
                init(dbPool: DatabasePool) { self.dbPool = dbPool }
                func title(taskStore: TaskStore) throws -> String? {
                    try dbPool.read { db in try taskStore.name(id: 1, db: db) }
                }
            }
            """)], consumer: "ProfileService")
        let service = try #require(edited["ProfileService.swift"])
        #expect(service.contains("func title(taskStore: ProfileService.Shims.TaskStore) throws -> String? {"))
        #expect(service.contains("try taskStore.name(id: 1, try SQLiteDB.readTransaction(bridging: db))"))
        // No shim property: the uses go through the parameter.
        #expect(!service.contains("let taskStore"))
        // The lookup bridge names SQLiteDB, whose module the file did not
        // import: a fresh app's first --apply --verify failed there.
        #expect(service.hasPrefix("import GRDB\nimport TransactionKitSQLite\n"))
        let entry = try #require(edited["Entry.swift"])
        #expect(entry.contains("try service.title(taskStore: ProfileService.Wrappers.TaskStore())"))
        #expect(entry.contains("try service.title(taskStore: ProfileService.Wrappers.TaskStore(shared))"))
    }

    @Test func aParameterPassedOnOrAmbiguousIsRefusedWithItsPlace() throws {
        let error = #expect(throws: GeneratorError.self) {
            try GeneratorFuzzRegressionTests.apply([Self.entry, ("ProfileService.swift", """
                import GRDB
                final class ProfileService {
                    let dbPool: DatabasePool
                    var kept: TaskStore?
                    init(dbPool: DatabasePool) { self.dbPool = dbPool }
                    func title(taskStore: TaskStore) throws -> String? {
                        kept = taskStore
                        return try dbPool.read { db in try taskStore.name(id: 1, db: db) }
                    }
                }
                final class Other { func title(taskStore: TaskStore) {} }
                """)], consumer: "ProfileService")
        }
        let text = try #require(error).description
        #expect(text.contains("ProfileService.swift:6"))
        #expect(text.contains("is used for more than calls of its members"))
    }

    /// Managers often share method names: with another type's function of
    /// the same name and labels, each call is told apart by its receiver's
    /// type (fuzzer seed 20261125), and a call it cannot type is refused.
    @Test func callsOfAnotherTypesFunctionOfTheSameNameAreLeftAlone() throws {
        let service = ("ProfileService.swift", """
            import GRDB
            final class ProfileService {
                let dbPool: DatabasePool
                init(dbPool: DatabasePool) { self.dbPool = dbPool }
                func title(taskStore: TaskStore) throws -> String? {
                    try dbPool.read { db in try taskStore.name(id: 1, db: db) }
                }
            }
            final class Other {
                func title(taskStore: TaskStore) -> String? { nil }
                func run() -> String? { title(taskStore: TaskStore()) }
            }
            """)
        let edited = try GeneratorFuzzRegressionTests.apply([Self.entry, service, ("Both.swift", """
            func both(service: ProfileService, other: Other) throws {
                _ = try service.title(taskStore: TaskStore())
                _ = other.title(taskStore: TaskStore())
                _ = Other().title(taskStore: TaskStore())
            }
            """)], consumer: "ProfileService")
        let both = try #require(edited["Both.swift"])
        #expect(both.contains("try service.title(taskStore: ProfileService.Wrappers.TaskStore())"))
        #expect(both.contains("other.title(taskStore: TaskStore())"))
        #expect(both.contains("Other().title(taskStore: TaskStore())"))
        #expect(try #require(edited["ProfileService.swift"]).contains("func run() -> String? { title(taskStore: TaskStore()) }"))
        let error = #expect(throws: GeneratorError.self) {
            try GeneratorFuzzRegressionTests.apply([Self.entry, service, ("Both.swift", """
                func make() -> ProfileService { fatalError() }
                func both() throws { _ = try make().title(taskStore: TaskStore()) }
                """)], consumer: "ProfileService")
        }
        #expect(try #require(error).description.contains("cannot tell whose function the call at Both.swift:2"))
    }

    /// An app's own transaction class received from the caller, which keeps
    /// GRDB's connection in a stored property (of its superclass here), is
    /// bridged through that property (fuzzer seed 777001: the last
    /// refusals of a received transaction).
    @Test func aReceivedAppTransactionIsBridgedThroughItsConnection() throws {
        let tree = try InlineTree([
            ("AppTransaction.swift", """
                import GRDB
                class AppReadTransaction {
                    let database: Database
                    init(_ database: Database) { self.database = database }
                }
                final class AppWriteTransaction: AppReadTransaction {}
                """),
            ("TaskStore.swift", """
                final class TaskStore: Sendable {
                    init() {}
                    func name(id: Int64, transaction: AppWriteTransaction) throws -> String? { nil }
                }
                """),
            ("App.swift", "import TransactionKitSQLite\nfunc start(pool: DatabasePool) throws -> SQLiteDB { try SQLiteDB(adopting: pool) }\n"),
            ("TaskManager.swift", """
                final class TaskManager {
                    let store = TaskStore()
                    init() {}
                    func title(transaction: AppWriteTransaction) throws -> String? { try store.name(id: 1, transaction: transaction) }
                }
                """),
        ], transaction: "AppWriteTransaction")
        let edits = try tree.generator.shim(consumer: "TaskManager", legacy: "TaskStore").edits.get()
        #expect(edits.first?.edited.contains(
            "try store.name(id: 1, try SQLiteDB.readTransaction(bridging: transaction.database))") == true)
    }
}
#endif
