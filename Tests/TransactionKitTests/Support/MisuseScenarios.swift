import Foundation
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// Misuses run by the exit tests, outside any macro so that `#fileID` and
/// `#line` are those of this file.
///
/// Each misuse shares its line with `announce(#line)`, which writes that line
/// number to standard error just before the misuse stops the process: the
/// parent checks that the call site in the misuse message is that very line,
/// without reading this file at run time.
enum MisuseScenarios {
    static let file = "TransactionKitTests/MisuseScenarios.swift"

    /// Writes `misuse-line: N` to standard error, unbuffered.
    static func announce(_ line: Int) {
        FileHandle.standardError.write(Data("misuse-line: \(line)\n".utf8))
    }

    static func useEscapedWriteTransaction(_ backend: Backend, in directory: String) throws {
        let fixture = try backend.makeFixture(in: directory)
        nonisolated(unsafe) var escaped: DBWriteTransaction?
        try fixture.db.write { tx in escaped = tx }
        announce(#line); escaped?.addSyncCompletion {}
    }

    static func checkRolledBackTransaction(_ backend: Backend, in directory: String) throws {
        let fixture = try backend.makeFixture(in: directory)
        nonisolated(unsafe) var escaped: DBWriteTransaction?
        _ = try? fixture.db.write { tx in
            escaped = tx
            throw TestError(id: 1)
        }
        announce(#line); escaped?.preconditionActive()
    }

    /// A transaction kept from inside a savepoint, used for a savepoint
    /// after its write returned.
    static func savepointOnATransactionEscapedFromASavepoint(_ backend: Backend, in directory: String) throws {
        let fixture = try backend.makeFixture(in: directory)
        nonisolated(unsafe) var escaped: DBWriteTransaction?
        try fixture.db.write { tx in
            try tx.inSavepoint {
                escaped = tx
                return .rollback
            }
        }
        announce(#line); try escaped?.inSavepoint { .commit }
    }

    static func readInsideWrite(_ backend: Backend, in directory: String) throws {
        let fixture = try backend.makeFixture(in: directory)
        try fixture.db.write { _ in
            announce(#line); _ = try fixture.db.read { _ in 1 }
        }
    }

    static func bridgeMockTransaction() throws {
        let db = MockDB()
        try db.write { tx in
            announce(#line); _ = try SQLiteDB.shimOnlyBridge(tx)
        }
    }

    static func useTransactionOnAnotherThread(_ backend: Backend, in directory: String) throws {
        let fixture = try backend.makeFixture(in: directory)
        try fixture.db.write { tx in
            nonisolated(unsafe) let smuggled = tx
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                announce(#line); smuggled.addSyncCompletion {}
                done.signal()
            }
            thread.start()
            done.wait()
        }
    }
}
