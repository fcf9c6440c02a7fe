import Foundation
import TransactionKit
import TransactionKitSQLite

/// The other process of the busy tests: runs inside an exit test's child
/// process, opens the same database file and holds its write lock.
enum LockHolder {
    /// Why the holder's transaction ends: it must leave no trace.
    struct Released: Error {}

    /// Begins a write on `path`, inserts a row, creates `ready`, then keeps
    /// the write lock until `release` exists or `atMostSeconds` passed, and
    /// rolls back.
    static func hold(path: String, ready: String, release: String, atMostSeconds: Double) throws {
        let db = try SQLiteDB(path: path)
        do {
            try db.write { tx in
                try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: ["holder"])
                _ = FileManager.default.createFile(atPath: ready, contents: nil)
                let deadline = Date().addingTimeInterval(atMostSeconds)
                while !FileManager.default.fileExists(atPath: release), Date() < deadline {
                    usleep(10_000)
                }
                throw Released()
            }
        } catch is Released {
        }
    }

    /// Waits until `path` exists (the holder is ready), for at most a minute.
    static func waitForFile(_ path: String) async throws {
        for _ in 0..<6_000 {
            if FileManager.default.fileExists(atPath: path) { return }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
}
