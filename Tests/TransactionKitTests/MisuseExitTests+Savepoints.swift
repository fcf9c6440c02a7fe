import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// A savepoint is a scope of its transaction, not a transaction of its
/// own: its block uses the write's transaction, which stays valid after the
/// savepoint ends, until the write's block returns. Kept beyond that, it is
/// an escaped transaction, for `inSavepoint` as for any other use.
extension MisuseExitTests {
    @Test(arguments: Backend.allCases)
    func aSavepointOnATransactionKeptFromASavepoint(_ backend: Backend) async throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [backend, directory = scratch.path as String] in
            try MisuseScenarios.savepointOnATransactionEscapedFromASavepoint(backend, in: directory)
        }
        let message = try #require(result).standardErrorText
        #expect(message.contains("\(MisuseScenarios.file):\(try #require(result?.announcedLine)): Fatal error: TransactionKit misuse: "))
        #expect(message.contains("DBWriteTransaction used (inSavepoint) after its `write` block returned"))
        #expect(message.contains("has been committed"))
    }
}
