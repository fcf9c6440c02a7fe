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
        return try LegacyConversion(
            configuration: Self.configuration(mockImports: ["@testable App"]),
            sources: SourceSet(sources: [(path: "UserFinder.swift", text: finder), (path: "TaskManager.swift", text: consumer)]),
            legacy: legacy)
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
}
#endif
