import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// Misuses run by the exit tests, outside any macro so that `#fileID` and
/// `#line` are those of this file. Each `…Line` constant is the line of the
/// misuse just below it.
enum MisuseScenarios {
    static let file = "TransactionKitTests/MisuseScenarios.swift"

    static func useEscapedWriteTransaction(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        nonisolated(unsafe) var escaped: DBWriteTransaction?
        try fixture.db.write { tx in escaped = tx }
        escaped?.addSyncCompletion {}
    }
    static let useEscapedWriteTransactionLine = 15

    static func checkRolledBackTransaction(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        nonisolated(unsafe) var escaped: DBWriteTransaction?
        _ = try? fixture.db.write { tx in
            escaped = tx
            throw TestError(id: 1)
        }
        escaped?.preconditionActive()
    }
    static let checkRolledBackTransactionLine = 26

    static func readInsideWrite(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        try fixture.db.write { _ in
            _ = try fixture.db.read { _ in 1 }
        }
    }
    static let readInsideWriteLine = 33

    static func bridgeMockTransaction() throws {
        let db = MockDB()
        try db.write { tx in
            _ = SQLiteDB.shimOnlyBridge(tx)
        }
    }
    static let bridgeMockTransactionLine = 41
}
