#if canImport(XCTest)
import TransactionKit
import TransactionKitSQLite
import XCTest

extension XCTestCase {
    /// Returns a fresh, private, fully migrated database copied from
    /// `template`, for `setUp` or the test itself.
    ///
    /// ```swift
    /// final class InboxManagerTests: XCTestCase {
    ///     var db: SQLiteDB!
    ///
    ///     override func setUpWithError() throws {
    ///         db = try makeFreshDatabase(from: TestDatabases.app)
    ///     }
    ///
    ///     func testANewUserHasNoUnreadMessage() throws {
    ///         XCTAssertEqual(try InboxManager(db: db).unreadCount(for: alice), 0)
    ///     }
    /// }
    /// ```
    ///
    /// **Semantics:** as ``SQLiteTemplate/makeDatabase()``. In addition, a
    /// teardown block waits for the async completions scheduled on the
    /// database, so that none of them runs during the next test.
    ///
    /// **Thread:** the calling thread (XCTest's test thread).
    ///
    /// **Lifetime:** the database lives as long as you keep the returned
    /// value (XCTest keeps test case instances alive until the end of the
    /// run: set the property to `nil` in `tearDown` to release the memory
    /// early in very large suites).
    ///
    /// - Parameter template: The schema (and fixtures) to copy from.
    /// - Returns: A new in-memory database that shares nothing with any other.
    /// - Throws: The ``/TransactionKit/DBError`` of ``SQLiteTemplate/makeDatabase()``.
    public func makeFreshDatabase(from template: SQLiteTemplate) throws -> SQLiteDB {
        let db = try template.makeDatabase()
        addTeardownBlock { @Sendable in
            await db.waitForAsyncCompletions()
        }
        return db
    }
}
#endif
