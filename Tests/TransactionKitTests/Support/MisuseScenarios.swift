import Foundation
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// Misuses run by the exit tests, outside any macro so that `#fileID` and
/// `#line` are those of this file. ``line(of:)`` finds the line of a misuse
/// in this very file, so the expected call sites never drift when it is
/// edited.
enum MisuseScenarios {
    static let file = "TransactionKitTests/MisuseScenarios.swift"
    private static let sourcePath = #filePath

    /// The number of the first line of this file that contains `code`.
    static func line(of code: String) -> Int {
        let source = (try? String(contentsOfFile: sourcePath, encoding: .utf8)) ?? ""
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.contains(code) } ?? -1) + 1
    }

    static func useEscapedWriteTransaction(_ backend: Backend, in directory: String) throws {
        let fixture = try backend.makeFixture(in: directory)
        nonisolated(unsafe) var escaped: DBWriteTransaction?
        try fixture.db.write { tx in escaped = tx }
        escaped?.addSyncCompletion {}
    }

    static func checkRolledBackTransaction(_ backend: Backend, in directory: String) throws {
        let fixture = try backend.makeFixture(in: directory)
        nonisolated(unsafe) var escaped: DBWriteTransaction?
        _ = try? fixture.db.write { tx in
            escaped = tx
            throw TestError(id: 1)
        }
        escaped?.preconditionActive()
    }

    static func readInsideWrite(_ backend: Backend, in directory: String) throws {
        let fixture = try backend.makeFixture(in: directory)
        try fixture.db.write { _ in
            _ = try fixture.db.read { _ in 1 }
        }
    }

    static func bridgeMockTransaction() throws {
        let db = MockDB()
        try db.write { tx in
            _ = try SQLiteDB.shimOnlyBridge(tx)
        }
    }

    static func useTransactionOnAnotherThread(_ backend: Backend, in directory: String) throws {
        let fixture = try backend.makeFixture(in: directory)
        try fixture.db.write { tx in
            nonisolated(unsafe) let smuggled = tx
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                smuggled.addSyncCompletion {}
                done.signal()
            }
            thread.start()
            done.wait()
        }
    }
}
