import Dispatch
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// Savepoints in transactions bridged from the application's own GRDB
/// write, beside the application's own GRDB savepoints.
extension AdoptionBehaviourTests {
    @Test(arguments: backends)
    func aSavepointOfABridgedTransactionRollsBackInsideTheApplicationsWrite(_ backend: Backend) throws {
        let app = try App(backend)
        let events = Locked<[String]>([])
        try app.pool.write { database in
            try database.execute(sql: "INSERT INTO message (text) VALUES ('legacy')")
            let tx = try app.db.writeTransaction(bridging: database)
            try tx.inSavepoint {
                try SQLiteMessageFinder().insert("lost", into: "message", tx)
                try app.store.setInt(1, key: "lost", transaction: tx)
                tx.addSyncCompletion { events.withValue { $0.append("discarded") } }
                return .rollback
            }
            try tx.inSavepoint {
                try SQLiteMessageFinder().insert("kept", into: "message", tx)
                tx.addSyncCompletion { events.withValue { $0.append("kept") } }
                return .commit
            }
            // The application's transaction goes on after both.
            try database.execute(sql: "INSERT INTO message (text) VALUES ('legacy, after')")
        }
        #expect(events.value == ["kept"])
        #expect(try app.count("message") == 3)
        #expect(try app.kv("lost") == nil)
    }

    @Test(arguments: backends)
    func savepointsNestWithTheApplicationsOwnGRDBSavepoints(_ backend: Backend) throws {
        let app = try App(backend)
        try app.pool.write { database in
            let tx = try app.db.writeTransaction(bridging: database)
            try database.inSavepoint {
                try tx.inSavepoint {
                    try database.execute(sql: "INSERT INTO message (text) VALUES ('lost with GRDB savepoint')")
                    try database.inSavepoint {
                        try app.store.setInt(1, key: "kept by GRDB", transaction: tx)
                        return .commit
                    }
                    return .commit
                }
                return .rollback
            }
            try tx.inSavepoint {
                try database.inSavepoint {
                    try app.store.setInt(2, key: "lost with ours", transaction: tx)
                    return .commit
                }
                return .rollback
            }
            try database.inSavepoint {
                try tx.inSavepoint {
                    try app.store.setInt(3, key: "kept", transaction: tx)
                    return .commit
                }
                return .commit
            }
        }
        #expect(try app.count("message") == 0)
        #expect(try app.kv("kept by GRDB") == nil)
        #expect(try app.kv("lost with ours") == nil)
        #expect(try app.kv("kept") == 3)
    }

    @Test(arguments: backends)
    func aSavepointInAFinalizationOfABridgedTransactionIsRefused(_ backend: Backend) throws {
        let app = try App(backend)
        withKnownIssue {
            #expect(throws: DBMisuseError.self) {
                try app.pool.write { database in
                    try database.execute(sql: "INSERT INTO message (text) VALUES ('legacy')")
                    let tx = try app.db.writeTransaction(bridging: database)
                    tx.addFinalization(key: "savepoint") { tx in
                        try tx.inSavepoint { .commit }
                    }
                }
            }
        } matching: { issue in
            Self.isMisuse("inSavepoint called from a finalization")(issue)
                && Self.isMisuse("inside SQLite's commit hook")(issue)
        }
        #expect(try app.count("message") == 0)
    }
}
