#if Txkit
import Foundation
import Testing
import TxkitGenerator

/// Failures the generator fuzzer found (issue 38), each as the smallest
/// program that showed it.
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
    /// consumer is seen through `@testable import` (was written
    /// `import @testable App`).
    @Test func testableMockImportsAreWrittenAsTestableImports() throws {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [.init(type: "Database", transaction: .read, bridge: "try SQLiteDB.shimOnlyBridge($tx)")]
        configuration.mockImports = ["@testable App"]
        let legacy = "import GRDB\nfinal class TaskStore: Sendable {\n    init() {}\n    func name(id: Int64, db: Database) throws -> String? { nil }\n}\n"
        let generator = try Generator(
            configuration: configuration,
            sources: SourceSet(sources: [(path: "TaskStore.swift", text: legacy), (path: "TaskManager.swift", text: Self.consumer)]))
        let files = try generator.shim(consumer: "TaskManager", legacy: "TaskStore")
        let mocks = files.filter { $0.path.hasPrefix(configuration.mocksFolder) }
        #expect(!mocks.isEmpty)
        for file in mocks {
            #expect(file.contents.contains("@testable import App\n"))
            #expect(!file.contents.contains("import @testable"))
        }
    }
}
#endif
