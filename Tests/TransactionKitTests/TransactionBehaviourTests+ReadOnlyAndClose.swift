import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// Read-only databases and `close()`, on every backend: the same errors,
/// thrown at the same moment, before any block runs.
extension TransactionBehaviourTests {
    @Test(arguments: Backend.allCases)
    func aReadOnlyDatabaseReadsAndRefusesEveryWrite(_ backend: Backend) async throws {
        let (db, path, directory) = try backend.makeReadOnlyDatabase()
        defer { withExtendedLifetime(directory) {} }

        #expect(try readSynchronously(db) == 1)
        let blockRuns = EventLog()
        let error = #expect(throws: DBError.self) {
            try writeSynchronously(db) { blockRuns.append("sync") }
        }
        let asyncError = await #expect(throws: DBError.self) {
            try await db.write { _ in blockRuns.append("async") }
        }
        #expect(blockRuns.events.isEmpty, "the block of a refused write never runs")
        for error in [error, asyncError] {
            #expect(error?.kind == .readOnly)
            #expect(error?.operation == .write)
            #expect(error?.path == path)
            // The same sentence on every backend, with the specific advice.
            #expect(error?.description == "database is read-only while writing \(path) (the database was opened "
                + "read-only). Open it without the read-only option to write, or move this write elsewhere.")
        }
        #expect(try await db.read { _ in "still readable" } == "still readable")
    }

    @Test(arguments: Backend.allCases)
    func afterCloseEveryTransactionThrowsClosedAndCloseIsIdempotent(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        try await fixture.db.write { tx in try fixture.store.setInt(1, key: "a", transaction: tx) }
        try backend.close(fixture.db)
        try backend.close(fixture.db)

        let read = #expect(throws: DBError.self) { try readSynchronously(fixture.db) }
        let write = #expect(throws: DBError.self) { try writeSynchronously(fixture.db) {} }
        let asyncRead = await #expect(throws: DBError.self) { try await fixture.db.read { _ in 1 } }
        let asyncWrite = await #expect(throws: DBError.self) { try await fixture.db.write { _ in 1 } }
        for (error, operation) in [(read, DBError.Operation.read), (write, .write), (asyncRead, .read), (asyncWrite, .write)] {
            #expect(error?.kind == .closed)
            #expect(error?.operation == operation)
            #expect(error?.message == "close() was called on this database")
        }
    }
}

/// The synchronous `read`, callable from an async test.
private func readSynchronously(_ db: any DB) throws -> Int {
    try db.read { _ in 1 }
}

/// The synchronous `write`, callable from an async test.
private func writeSynchronously(_ db: any DB, _ body: () -> Void) throws {
    try db.write { _ in body() }
}

extension Backend {
    /// A read-only database of this backend, its path (or label) as errors
    /// name it, and the directory that holds a file database.
    func makeReadOnlyDatabase() throws -> (any DB, String, TemporaryDirectory?) {
        var options = SQLiteDB.Options()
        options.readOnly = true
        switch self {
        case .mock:
            return (MockDB(label: "ReadOnlyMock", isReadOnly: true), "ReadOnlyMock", nil)
        case .sqliteInMemory:
            return (try SQLiteDB.inMemory(migrator: TestSchema.migrator, options: options), "in-memory", nil)
        case .sqliteFile:
            let directory = try TemporaryDirectory()
            let path = directory.path("db.sqlite")
            try SQLiteDB(path: path, migrator: TestSchema.migrator).close()
            return (try SQLiteDB(path: path, migrator: TestSchema.migrator, options: options), path, directory)
        case .sqliteAdoptedPool, .sqliteAdoptedQueue:
            // The application's own connection(s), opened read-only on a
            // file that its migrations created.
            let directory = try TemporaryDirectory()
            let path = directory.path("app.sqlite")
            try TestSchema.migrator.migrate(DatabasePool(path: path))
            var configuration = Configuration()
            configuration.readonly = true
            let db = self == .sqliteAdoptedPool
                ? try SQLiteDB(adopting: DatabasePool(path: path, configuration: configuration))
                : try SQLiteDB(adopting: DatabaseQueue(path: path, configuration: configuration))
            return (db, path, directory)
        }
    }

    /// Closes `db` the way its type does.
    func close(_ db: any DB) throws {
        switch db {
        case let mock as MockDB: mock.close()
        case let sqlite as SQLiteDB: try sqlite.close()
        default: Issue.record("no close() for \(type(of: db))")
        }
    }
}
