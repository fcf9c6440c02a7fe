import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// Outside a test runner (here, an exit test's child process), an `AsyncDB`
/// misuse stops the process with a message naming its call site, as a `DB`
/// misuse does.
@Suite("AsyncDB misuse stops the process")
struct AsyncDBMisuseExitTests {
    @Test(arguments: AsyncBackend.allCases)
    func aNestedAsyncTransaction(_ backend: AsyncBackend) async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend = backend as AsyncBackend] in
            try await AsyncMisuseScenarios.readInsideAsyncWrite(backend)
        }
        let message = try #require(result).standardErrorText
        let line = try #require(result?.announcedLine)
        #expect(message.contains("\(AsyncMisuseScenarios.file):\(line): Fatal error: TransactionKit misuse: "))
        #expect(message.contains("`read` called inside a `write` transaction of the same DB"))
    }

    @Test(arguments: AsyncBackend.allCases)
    func anEscapedAsyncTransaction(_ backend: AsyncBackend) async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend = backend as AsyncBackend] in
            try await AsyncMisuseScenarios.useEscapedAsyncTransaction(backend)
        }
        let message = try #require(result).standardErrorText
        let line = try #require(result?.announcedLine)
        #expect(message.contains("\(AsyncMisuseScenarios.file):\(line): Fatal error: TransactionKit misuse: "))
        #expect(message.contains("DBWriteTransaction used (addSyncCompletion) after its `write` block returned"))
    }

    @Test(arguments: AsyncBackend.allCases)
    func aTransactionUsedFromAnotherTask(_ backend: AsyncBackend) async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend = backend as AsyncBackend] in
            try await AsyncMisuseScenarios.useTransactionFromAnotherTask(backend)
        }
        let message = try #require(result).standardErrorText
        let line = try #require(result?.announcedLine)
        #expect(message.contains("\(AsyncMisuseScenarios.file):\(line): Fatal error: TransactionKit misuse: "))
        #expect(message.contains("from a task other than the one running its `read` block"))
    }
}
