#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// The database files stay private to their owner, whatever the umask.
@Suite("SQLite file permissions")
struct SQLiteSecurityTests {
    /// Creates a database under `umask 000` and returns the files whose
    /// permissions are not `0600`. Runs in an exit test's child process,
    /// because the umask belongs to the whole process.
    static func permissionProblemsUnderPermissiveUmask(in directory: String) throws -> [String] {
        umask(0)
        let path = directory + "/umask0.sqlite"
        let db = try SQLiteDB(path: path)
        try db.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "CREATE TABLE secret (value TEXT); INSERT INTO secret VALUES ('s')")
        }
        var problems: [String] = []
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(file, &status) == 0 else {
                problems.append("\(file) is missing")
                continue
            }
            let permissions = status.st_mode & 0o777
            if permissions != 0o600 {
                problems.append("\(file) has permissions \(String(permissions, radix: 8))")
            }
        }
        return problems
    }

    @Test func aNewDatabaseIsOwnerOnlyEvenUnderAPermissiveUmask() async throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [path = directory.url.path as String] in
            let problems = try SQLiteSecurityTests.permissionProblemsUnderPermissiveUmask(in: path)
            if !problems.isEmpty {
                FileHandle.standardError.write(Data(problems.joined(separator: "\n").utf8))
                exit(1)
            }
        }
        if let result, !result.standardErrorContent.isEmpty {
            Issue.record("\(String(decoding: result.standardErrorContent, as: UTF8.self))")
        }
    }
}
