import Foundation
import TransactionKit

/// `AsyncDB` misuses run by the exit tests, outside any macro so that
/// `#fileID` and `#line` are those of this file (see `MisuseScenarios`).
enum AsyncMisuseScenarios {
    static let file = "TransactionKitTests/AsyncMisuseScenarios.swift"

    static func readInsideAsyncWrite(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        try await fixture.db.write { _ in
            await Task.yield()
            MisuseScenarios.announce(#line); _ = try await fixture.db.read { _ in await Task.yield() }
        }
    }

    static func useEscapedAsyncTransaction(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let smuggler = TransactionSmuggler<DBWriteTransaction>()
        try await fixture.db.write { tx in
            await Task.yield()
            smuggler.transaction = tx
        }
        MisuseScenarios.announce(#line); smuggler.transaction?.addSyncCompletion {}
    }

    static func asyncSavepointOnAnEscapedTransaction(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let smuggler = TransactionSmuggler<DBWriteTransaction>()
        try await fixture.db.write { tx in
            try await tx.inSavepoint {
                await Task.yield()
                smuggler.transaction = tx
                return .commit
            }
        }
        MisuseScenarios.announce(#line); try await smuggler.transaction?.inSavepoint { await Task.yield(); return .commit }
    }

    static func useTransactionFromAnotherTask(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        try await fixture.db.read { tx in
            let smuggler = TransactionSmuggler<DBReadTransaction>()
            smuggler.transaction = tx
            await Task.detached {
                MisuseScenarios.announce(#line); smuggler.transaction?.preconditionActive()
            }.value
        }
    }
}
