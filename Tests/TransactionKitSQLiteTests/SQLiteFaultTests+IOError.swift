import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

extension SQLiteFaultTests {
    /// The storage device fails while a transaction commits: the WAL frames
    /// reach the page cache, then `fsync` fails (`SQLITE_IOERR_FSYNC`). The
    /// write is reported as an I/O error whose outcome is unknown, and
    /// everything committed before is intact after the device recovers and
    /// the file is read from it again.
    @Test func anIOErrorWhileCommittingHasAnUnknownOutcomeAndLosesNothingCommittedBefore() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let device = try FailingBlockDevice.make(at: directory.path("device"))
        defer { device.remove() }
        let path = device.mountPoint + "/io.sqlite"

        var failedName: String?
        do {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            try Self.commitBefore(db)
            try device.failWrites()
            var caught: DBError?
            for index in 0..<50 {
                let name = "lost? \(index) " + String(repeating: "z", count: 200_000)
                do {
                    try db.write { tx in try Self.insert(name, tx) }
                    Issue.record("write \(index) committed on a failing device")
                } catch let error as DBError {
                    caught = error
                    failedName = name
                    break
                }
            }
            let description = Self.expectTyped(caught, .ioError, .commit, path: path, primaryCode: .SQLITE_IOERR)
            #expect(caught?.isOutcomeUnknown == true)
            #expect(description.contains("unknown"), "\(description)")
            print("I/O error while committing: \(description)")
            device.restoreWrites()
            try? db.close()
        }
        try device.remount()

        // Committed before: all there. The failed write: all or nothing.
        let (names, audits, integrity) = try Self.readBack(path)
        #expect(names == Self.committedBefore || names == Self.committedBefore + [failedName].compactMap { $0 })
        #expect(audits == names.count)
        #expect(integrity == ["ok"])
        print("after the device recovered: \(names.count - Self.committedBefore.count) of the failed write's 1 row kept")
    }
}
