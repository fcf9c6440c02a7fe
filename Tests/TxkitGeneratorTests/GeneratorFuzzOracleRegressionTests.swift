#if Txkit
import Foundation
import Testing
import TxkitGenerator

/// Failures the generator fuzzer's MockDB and conversion oracles found
/// (issue 38), each as the smallest program that showed it.
@Suite("GeneratorFuzz oracle regressions")
struct GeneratorFuzzOracleRegressionTests {
    static func configuration(mockImports: [String]) -> GeneratorConfiguration {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [.init(type: "Database", transaction: .read, bridge: "try SQLiteDB.shimOnlyBridge($tx)")]
        configuration.mockImports = mockImports
        return configuration
    }

    /// `txkit mock` (and so `convert`, which writes the protocol's mock)
    /// writes `@testable App` from mockImports as `@testable import App`
    /// (was `import @testable App`, which does not parse: every convert
    /// of a program configured as `txkit init` configures it failed).
    @Test func aProtocolMockWritesTestableMockImportsAsTestableImports() throws {
        let finding = """
            import TransactionKit
            protocol TaskStoreFinding {
                func name(id: Int64, _ tx: DBReadTransaction) throws -> String?
            }
            """
        let generator = try Generator(
            configuration: Self.configuration(mockImports: ["@testable App"]),
            sources: SourceSet(sources: [(path: "TaskStoreFinding.swift", text: finding)]))
        let mock = try generator.mock(protocol: "TaskStoreFinding")
        #expect(mock.contents.contains("\n@testable import App\n"))
        #expect(!mock.contents.contains("import @testable"))
    }

    static func conversion(_ finder: String, legacy: String = "UserFinder") throws -> LegacyConversion {
        let consumer = """
            import TransactionKit
            import TransactionKitSQLite
            final class TaskManager {
                let db: any DB
                let userFinder = UserFinder()
                init(db: any DB) { self.db = db }
                func m0() throws -> Int {
                    try db.read { tx in try userFinder.count(db: try SQLiteDB.shimOnlyBridge(tx)) }
                }
            }
            """
        return try Generator(
            configuration: Self.configuration(mockImports: ["@testable App"]),
            sources: SourceSet(sources: [(path: "UserFinder.swift", text: finder), (path: "TaskManager.swift", text: consumer)])
        ).convert(legacy: legacy)
    }

    /// An `open` finder's members are internal unless they say otherwise:
    /// its protocol is no wider than they are (was `public`: "method
    /// 'count' must be declared public because it matches a requirement
    /// in public protocol 'UserFinding'").
    @Test func theProtocolOfAnOpenFinderIsNoWiderThanItsMembers() throws {
        let finder = """
            import GRDB
            open class UserFinder {
                public init() {}
                func count(db: Database) throws -> Int { 0 }
            }
            """
        let conversion = try Self.conversion(finder)
        #expect(conversion.blockers.isEmpty)
        let file = try #require(conversion.files.first { $0.path.hasSuffix("UserFinding.swift") })
        #expect(file.contents.contains("\nprotocol UserFinding {"))

        let publicMembers = try Self.conversion(finder.replacingOccurrences(of: "    func count", with: "    public func count"))
        let publicFile = try #require(publicMembers.files.first { $0.path.hasSuffix("UserFinding.swift") })
        #expect(publicFile.contents.contains("\npublic protocol UserFinding {"))

        let publicExtension = try Self.conversion("""
            import GRDB
            open class UserFinder {
                public init() {}
            }
            public extension UserFinder {
                func count(db: Database) throws -> Int { 0 }
            }
            """)
        let extensionFile = try #require(publicExtension.files.first { $0.path.hasSuffix("UserFinding.swift") })
        #expect(extensionFile.contents.contains("\npublic protocol UserFinding {"))
    }
    /// A struct finder that is `Sendable` only implicitly, whose shim a
    /// consumer declared `Sendable` holds: `convert` refuses, naming the
    /// finder and the one word to add (it converted, and the consumer no
    /// longer built: "stored property 'userFinder' of 'Sendable'-conforming
    /// class 'TaskManager' has non-Sendable type 'any UserFinding'").
    @Test func anImplicitlySendableFinderHeldByASendableConsumerIsRefusedWithTheFix() throws {
        let consumer = """
            import TransactionKit
            import TransactionKitSQLite
            final class TaskManager: Sendable {
                let db: any DB
                let userFinder: UserFinder
                init(db: any DB, userFinder: UserFinder = UserFinder()) {
                    self.db = db
                    self.userFinder = userFinder
                }
                func m0() throws -> Int {
                    try db.read { tx in try userFinder.count(db: try SQLiteDB.shimOnlyBridge(tx)) }
                }
            }
            """
        func convertAfterShim(finder: String) throws -> LegacyConversion {
            var sources = [(path: "Sources/App/UserFinder.swift", text: finder), (path: "Sources/App/TaskManager.swift", text: consumer)]
            let configuration = Self.configuration(mockImports: ["@testable App"])
            let generator = try Generator(configuration: configuration, sources: SourceSet(sources: sources))
            let plan = try generator.plan(consumer: "TaskManager", legacy: "UserFinder")
            for edit in try generator.rewrite(plan) {
                sources.removeAll { $0.path == edit.path }
                sources.append((path: edit.path, text: edit.edited))
            }
            sources += generator.render(plan).map { (path: $0.path, text: $0.contents) }
            return try Generator(configuration: configuration, sources: SourceSet(sources: sources)).convert(legacy: "UserFinder")
        }
        let implicit = try convertAfterShim(finder: """
            import GRDB
            struct UserFinder {
                init() {}
                func count(db: Database) throws -> Int { 0 }
            }
            """)
        let blocker = try #require(implicit.blockers.first { $0.sentence.contains("Sendable only implicitly") })
        #expect(blocker.sentence.contains("TaskManager is Sendable"))
        #expect(blocker.sentence.contains("struct UserFinder: Sendable"))
        #expect(blocker.location.path == "Sources/App/UserFinder.swift")

        let declared = try convertAfterShim(finder: """
            import GRDB
            struct UserFinder: Sendable {
                init() {}
                func count(db: Database) throws -> Int { 0 }
            }
            """)
        #expect(declared.blockers.isEmpty, "\(declared.blockers)")
        let file = try #require(declared.files.first { $0.path.hasSuffix("UserFinding.swift") })
        #expect(file.contents.contains("protocol UserFinding: Sendable {"))
    }
}
#endif
