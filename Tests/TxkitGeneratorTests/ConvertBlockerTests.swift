#if Txkit
import Foundation
import Testing
import TxkitGenerator

/// `txkit convert` plans (and `inventory --conversions` reports ready) only
/// what it can convert so that the package still builds.
@Suite("convert: what it leaves to a person")
struct ConvertBlockerTests {
    static func generator(_ files: [(String, String)]) throws -> Generator {
        try InlineTree(files, transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)").generator
    }

    /// A GRDB record is no finder to inject (`extension Note: NoteFinding`,
    /// production passing `Note`): it has no argument-free initializer.
    @Test func aGRDBRecordIsNoFinderToInject() throws {
        let generator = try Self.generator([("Note.swift", """
            import GRDB
            struct Note: Codable, FetchableRecord, PersistableRecord {
                var id: Int64?
                var title: String
                static func named(_ title: String, db: Database) throws -> Note? {
                    try Note.filter(Column("title") == title).fetchOne(db)
                }
            }
            final class Notes {
                let pool: DatabasePool
                init(pool: DatabasePool) { self.pool = pool }
                func find(_ title: String) throws -> Note? { try pool.read { db in try Note.named(title, db: db) } }
            }
            """)])
        let conversion = try generator.convert(legacy: "Note")
        let blocker = try #require(conversion.blockers.first { $0.reason.contains("Note is a GRDB record") })
        #expect(blocker.fix.contains("txkit migrate"))
    }

    /// A finder whose protocol declares the same members with an
    /// associated transaction type is blocked, not reported ready: its
    /// conversion would break the build.
    @Test func aFinderConformingToAProtocolOfItsTransactionIsBlocked() throws {
        let generator = try Self.generator([("ThreadFinder.swift", """
            import GRDB
            protocol ThreadFinder {
                associatedtype ReadTransaction
                func threadCount(transaction: ReadTransaction) throws -> Int
            }
            struct LegacyThreadFinder: ThreadFinder {
                typealias ReadTransaction = Database
                func threadCount(transaction: Database) throws -> Int {
                    try Int.fetchOne(transaction, sql: "SELECT COUNT(*) FROM thread") ?? 0
                }
            }
            final class Badge {
                let pool: DatabasePool
                let finder = LegacyThreadFinder()
                init(pool: DatabasePool) { self.pool = pool }
                func count() throws -> Int { try pool.read { db in try finder.threadCount(transaction: db) } }
            }
            """)])
        let conversion = try generator.convert(legacy: "LegacyThreadFinder")
        #expect(conversion.blockers.contains { $0.reason.contains("conforms to ThreadFinder") }, "\(conversion.blockers)")
    }

    /// An enum finder's static constant that a caller reads
    /// (`TaskStore.label`) is an instance requirement of the protocol: the
    /// production conformance forwards it to the static, as it forwards the
    /// converted static methods (it did not, and the conversion broke the
    /// build).
    @Test func aStaticConstantCallersReadIsForwardedByTheConformance() throws {
        let generator = try Self.generator([("TaskStore.swift", """
            import GRDB
            enum TaskStore {
                static let label = "TaskStore"
                static func name(id: Int64, db: Database) throws -> String? {
                    try String.fetchOne(db, sql: "SELECT name FROM t WHERE id = ?", arguments: [id])
                }
            }
            final class ProfileService {
                func describe(db: Database) throws -> String {
                    TaskStore.label + " " + String(describing: try TaskStore.name(id: 2, db: db))
                }
            }
            """)])
        let conversion = try generator.convert(legacy: "TaskStore")
        let protocolFile = try #require(conversion.files.first { $0.path.hasSuffix("TaskStoreFinding.swift") }).contents
        #expect(protocolFile.contains("var label: String { get }"))
        #expect(protocolFile.contains("var label: String { Self.label }"))
        #expect(protocolFile.contains("try Self.name(id: id, tx)"))
    }

    /// A caller in a method that does not throw cannot call the converted
    /// member, which throws (its bridge can): the conversion is blocked
    /// with that place, not applied into a broken build.
    @Test func aCallerInAMethodThatDoesNotThrowBlocksTheConversion() throws {
        let files = [("UserFinder.swift", """
            import GRDB
            enum UserFinder {
                static func name(id: Int64, db: Database) -> String? {
                    (try? String.fetchOne(db, sql: "SELECT name FROM t WHERE id = ?", arguments: [id])) ?? nil
                }
            }
            final class ProfileService {
                func describe(db: Database) -> String {
                    String(describing: UserFinder.name(id: 2, db: db))
                }
            }
            """)]
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [.init(type: "Database", transaction: .read, bridge: "try SQLiteDB.shimOnlyBridge($tx)")]
        configuration.legacyTransactions[0].reverseBridge = .init(read: "SQLiteDB.readTransaction(bridging: $legacy)", write: nil)
        let generator = Generator(configuration: configuration, sources: try SourceSet(sources: files.map { (path: $0.0, text: $0.1) }))
        let conversion = try generator.convert(legacy: "UserFinder")
        #expect(conversion.blockers.contains { $0.reason.contains("in a function that does not throw") }, "\(conversion.blockers.map(\.reason))")
    }
}
#endif
