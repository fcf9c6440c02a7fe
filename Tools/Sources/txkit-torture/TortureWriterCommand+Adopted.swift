#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import TransactionKit
import TransactionKitSQLite

extension TortureWriterCommand {
    /// `writer --adopt`: the writer of an app that owns its GRDB pool and
    /// adopted it (`SQLiteDB(adopting:)`). Odd transactions are migrated
    /// code's `db.write`; even ones are legacy code's own `pool.write`,
    /// whose rows are written through the bridged transaction
    /// (`writeTransaction(bridging:)`). Both kinds go through the app's one
    /// writer, and each number is acknowledged only after its write returned.
    func runAdopted() throws {
        let parent = getppid()
        var configuration = Configuration()
        let synchronous = durability == .full ? "FULL" : "NORMAL"
        configuration.prepareDatabase { database in
            try database.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
        let db = try SQLiteDB(adopting: pool)
        let first = try pool.read { database in
            try Int.fetchOne(database, sql: "SELECT COALESCE(MAX(id), 0) + 1 FROM torture_txn") ?? 1
        }
        var number = first
        while limit.map({ number - first < $0 }) ?? true {
            if number % 2 == 1 {
                try db.write { tx in try Self.insertTransaction(number, SQLiteDB.shimOnlyBridge(tx)) }
            } else {
                try pool.write { database in
                    let tx = try db.writeTransaction(bridging: database)
                    try Self.insertTransaction(number, SQLiteDB.shimOnlyBridge(tx))
                }
            }
            TortureOutput.writeLine("\(number)")
            number += 1
            if getppid() != parent {
                return  // Orphaned: nobody reads the acknowledgements any more.
            }
        }
    }
}
