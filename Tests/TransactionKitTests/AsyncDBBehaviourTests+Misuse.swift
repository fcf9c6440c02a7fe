import Foundation
import Testing
import TransactionKit
import TransactionKitTesting

/// Programmer errors in async blocks are caught per task. Under a test
/// runner a misuse fails the running test at its call site and throws
/// `DBMisuseError`; `withKnownIssue` expects that failure.
extension AsyncDBBehaviourTests {
    static func isMisuse(_ text: String) -> @Sendable (Issue) -> Bool {
        { issue in issue.comments.contains { $0.rawValue.contains("TransactionKit misuse:") && $0.rawValue.contains(text) } }
    }

    @Test(arguments: AsyncBackend.allCases)
    func aNestedTransactionInTheSameTaskIsAMisuse(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let thrown = Locked<[String]>([])
        await withKnownIssue {
            do {
                try await fixture.db.write { tx in
                    try await fixture.store.setInt(1, key: "a", transaction: tx)
                    await Task.yield()
                    do {
                        _ = try await fixture.db.read { _ in 0 }
                    } catch let error as DBMisuseError {
                        thrown.withValue { $0.append("read: \(error.message)") }
                    }
                    do {
                        try await fixture.db.write { _ in }
                    } catch let error as DBMisuseError {
                        thrown.withValue { $0.append("write: \(error.message)") }
                    }
                }
            } catch {
                thrown.withValue { $0.append("outer: \(error)") }
            }
        } matching: { issue in
            Self.isMisuse("inside a `write` transaction of the same DB")(issue)
                && issue.sourceLocation?.fileName == "AsyncDBBehaviourTests+Misuse.swift"
        }
        #expect(thrown.value.count == 2)
        #expect(thrown.value.allSatisfy { $0.contains("Transactions do not nest") })
        #expect(try await fixture.value("a") == 1, "the outer write went on and committed")
    }

    @Test(arguments: AsyncBackend.allCases)
    func anEscapedTransactionIsAMisuse(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let smuggler = TransactionSmuggler<DBWriteTransaction>()
        try await fixture.db.write { tx in
            await Task.yield()
            smuggler.transaction = tx
        }
        let escaped = try #require(smuggler.transaction)
        #expect(!escaped.isActive)
        var thrown: (any Error)?
        await withKnownIssue {
            do {
                try await fixture.store.setInt(1, key: "a", transaction: escaped)
            } catch {
                thrown = error
            }
        } matching: {
            Self.isMisuse("DBWriteTransaction used")($0) && $0.comments.contains { $0.rawValue.contains("has been committed") }
        }
        withKnownIssue {
            escaped.addSyncCompletion {}
        } matching: { Self.isMisuse("after its `write` block returned")($0) }
        #expect(thrown is DBMisuseError)
        #expect(try await fixture.value("a") == nil)
    }

    /// A transaction handed to another task (here an unstructured `Task`,
    /// which the compiler would refuse without smuggling) while its block
    /// runs is a misuse: transactions belong to the task running the block.
    @Test(arguments: AsyncBackend.allCases)
    func aTransactionUsedFromAnotherTaskIsAMisuse(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        await withKnownIssue {
            _ = try? await fixture.db.read { tx in
                let smuggler = TransactionSmuggler<DBReadTransaction>()
                smuggler.transaction = tx
                await Task {
                    smuggler.transaction?.preconditionActive()
                }.value
            }
        } matching: { Self.isMisuse("from a task other than the one running its `read` block")($0) }
    }
}
