import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// An async block's savepoint on a transaction kept beyond its write: an
/// escaped transaction (see `MisuseExitTests+Savepoints.swift`).
extension AsyncDBMisuseExitTests {
    @Test(arguments: AsyncBackend.allCases)
    func anAsyncSavepointOnAnEscapedTransaction(_ backend: AsyncBackend) async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend = backend as AsyncBackend] in
            try await AsyncMisuseScenarios.asyncSavepointOnAnEscapedTransaction(backend)
        }
        let message = try #require(result).standardErrorText
        let line = try #require(result?.announcedLine)
        #expect(message.contains("\(AsyncMisuseScenarios.file):\(line): Fatal error: TransactionKit misuse: "))
        #expect(message.contains("DBWriteTransaction used (inSavepoint) after its `write` block returned"))
    }
}
