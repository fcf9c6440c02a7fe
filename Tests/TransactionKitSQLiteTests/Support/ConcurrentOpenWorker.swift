import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite

/// The child side of the concurrent-open test: a process that opens the
/// database files its parent names, one at a time, at the moment the parent
/// says so.
///
/// The parent starts the test binary itself with
/// ``environmentKey`` set and a filter that selects only
/// `SQLiteConcurrentOpenTests.worker()`, which calls ``serve()``. The worker
/// reads one path per line on its standard input, opens and migrates that
/// file with ``migrator``, closes it, and answers one line on its standard
/// output: ``replyPrefix`` followed by `ok` or by `fail` and the error. The
/// parent writes the same path to every worker at once, so the workers'
/// first opens of that file race for real, then waits for every answer
/// before the next round: the pipes are the barrier, no sleep is involved.
enum ConcurrentOpenWorker {
    /// Set to `1` in a worker's environment.
    static let environmentKey = "TXKIT_CONCURRENT_OPEN_WORKER"

    /// Starts an answer line; the test runner's own output on the same
    /// stream is ignored.
    static let replyPrefix = "concurrent-open-reply: "

    /// Whether this process is a worker.
    static var isWorker: Bool {
        ProcessInfo.processInfo.environment[environmentKey] == "1"
    }

    /// Four migrations: schema changes (a second run of v1, v2 or v3 fails
    /// with "already exists" or "duplicate column") and a data-only one (a
    /// second run of v4 would succeed, and only the uniqueness of the
    /// applied migration's identifier stops it). Each appends its name to
    /// `log`, so a migration applied twice shows.
    static var migrator: DatabaseMigrator {
        migrator(upTo: migrationNames.count)
    }

    /// The migrations' identifiers, in order.
    static let migrationNames = ["v1", "v2", "v3", "v4"]

    /// The first `count` migrations of ``migrator``: a database partly
    /// migrated by an earlier version of the app.
    static func migrator(upTo count: Int) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        let bodies: [String] = [
            """
            CREATE TABLE user (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE log (migration TEXT NOT NULL);
            """,
            """
            CREATE TABLE message (id INTEGER PRIMARY KEY, user INTEGER NOT NULL REFERENCES user(id), text TEXT NOT NULL);
            CREATE INDEX message_user ON message(user);
            """,
            "ALTER TABLE user ADD COLUMN email TEXT;",
            "INSERT INTO user (name, email) VALUES ('admin', 'admin@example.com');",
        ]
        for (name, body) in zip(migrationNames, bodies).prefix(count) {
            migrator.registerMigration(name) { db in
                try db.execute(sql: body)
                try db.execute(sql: "INSERT INTO log (migration) VALUES (?)", arguments: [name])
            }
        }
        return migrator
    }

    /// Answers the parent's requests until its standard input closes.
    static func serve() {
        while let path = readLine() {
            let reply: String
            do {
                let db = try SQLiteDB(path: path, migrator: migrator)
                try db.close()
                reply = "ok"
            } catch {
                reply = "fail " + "\(error)".replacingOccurrences(of: "\n", with: " ")
            }
            // One unbuffered write per answer, never split by buffering.
            FileHandle.standardOutput.write(Data((replyPrefix + reply + "\n").utf8))
        }
    }
}
