#if Postgres
import Foundation
import PostgresNIO
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport

/// A query on a connection that closes under it ends, with an error or its
/// answer, instead of waiting forever. postgres-nio 1.33 never completes a
/// query written to a channel that has just closed; the PostgreSQL
/// torture's writers hung there about once in 40 server kills, after the
/// `isClosed` check and before the write.
@Suite(
    "PostgreSQL queries on a closing connection",
    .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresClosingConnectionTests {
    /// Queries sent in a tight loop from several tasks while the connection
    /// closes: every one ends (a query left waiting hangs the test).
    @Test(arguments: [Sending.rows, Sending.result])
    func everyQueryEndsWhenTheConnectionClosesUnderIt(_ sending: Sending) async throws {
        for round in 0..<20 {
            try await PostgresTestServer.admin { connection in
                let backend = try await Self.backendID(of: connection)
                let finished = LockedValue(0)
                let senders = 4
                for _ in 0..<senders {
                    Task {
                        while true {
                            do {
                                try await sending.send("SELECT 1", on: connection)
                            } catch {
                                break
                            }
                        }
                        finished.withLock { $0 += 1 }
                    }
                }
                try await Task.sleep(nanoseconds: UInt64(1 + round % 5) * 1_000_000)
                // The server ends the connection, as when it is killed.
                try await PostgresTestServer.admin { admin in
                    try await admin.query("SELECT pg_terminate_backend(\(backend))", logger: PostgresTestServer.logger)
                }
                while finished.withLock({ $0 }) < senders {
                    try await Task.sleep(nanoseconds: 5_000_000)
                }
            }
        }
    }

    /// A finished query leaves nothing waiting for the close, and a result
    /// nobody reads is released, so postgres-nio drains it: the next query
    /// on the connection answers (a close callback per query kept every
    /// result until the connection closed).
    @Test func finishedQueriesLeaveNothingBehind() async throws {
        try await PostgresTestServer.admin { connection in
            let logger = PostgresTestServer.logger
            for _ in 0..<3 {
                // More rows than postgres-nio buffers before it waits for a reader.
                try await connection.queryUnlessClosed("SELECT generate_series(1, 50000)", logger: logger)
            }
            for _ in 0..<100 {
                _ = try await connection.resultUnlessClosed("SELECT 1", logger: logger).get()
            }
            let rows = try await connection.queryUnlessClosed("SELECT 42", logger: logger)
            var answer: Int?
            for try await value in rows.decode(Int.self) { answer = value }
            #expect(answer == 42)
            #expect(PostgresCloseWatch.shared.watchedQueries(on: connection) == 0)
        }
    }

    /// Closed before the query: it fails at once, typed.
    @Test func aQueryOnAClosedConnectionFailsAsConnectionFailed() async throws {
        let db = try await PostgresTestServer.open()
        defer { Task { await db.close() } }
        let error = await #expect(throws: DBError.self) {
            try await db.write { tx in
                let handle = try PostgresDB.shimOnlyBridge(tx)
                try await handle.connection.close()
                try await handle.query("SELECT 1")
            }
        }
        #expect(error?.kind == .connectionFailed, "\(String(describing: error))")
    }

    private static func backendID(of connection: PostgresConnection) async throws -> Int32 {
        let rows = try await connection.query("SELECT pg_backend_pid()", logger: PostgresTestServer.logger)
        for try await id in rows.decode(Int32.self) { return id }
        throw PostgresBackendIDMissing()
    }

    private struct PostgresBackendIDMissing: Error {}

    enum Sending: String, CustomTestStringConvertible, Sendable {
        case rows, result
        var testDescription: String { rawValue }

        func send(_ sql: String, on connection: PostgresConnection) async throws {
            let query = PostgresQuery(unsafeSQL: sql)
            switch self {
            case .rows:
                try await connection.queryUnlessClosed(query, logger: PostgresTestServer.logger)
            case .result:
                _ = try await connection.resultUnlessClosed(query, logger: PostgresTestServer.logger).get()
            }
        }
    }
}
#endif
