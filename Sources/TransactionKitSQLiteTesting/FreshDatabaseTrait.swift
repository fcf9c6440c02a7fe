import Testing
import TransactionKit
import TransactionKitSQLite

/// A Swift Testing trait that gives every test its own fresh database,
/// copied from an ``SQLiteTemplate``, as ``FreshDatabase/current``.
///
/// Create it with ``Testing/Trait/freshDatabase(_:)``. See that function for
/// an example and the exact semantics.
public struct FreshDatabaseTrait: TestTrait, SuiteTrait, TestScoping {
    /// The template the databases are copied from.
    public let template: SQLiteTemplate

    /// Applied to a suite, the trait applies to each of its tests.
    public var isRecursive: Bool { true }

    /// Builds the template before the first test that needs it, so that a
    /// broken migration fails the trait once with its `DBError`.
    public func prepare(for test: Test) async throws {
        try template.prepare()
    }

    /// Runs one test case with a fresh database bound, then waits for the
    /// async completions that test scheduled on it.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else {
            // The suite itself: each of its test cases gets its own scope.
            try await function()
            return
        }
        let db = try template.makeDatabase()
        do {
            try await FreshDatabase.$bound.withValue(db) {
                try await function()
            }
        } catch {
            // A failing test's completions must not run during the next test either.
            await db.waitForAsyncCompletions()
            throw error
        }
        await db.waitForAsyncCompletions()
    }
}

extension Trait where Self == FreshDatabaseTrait {
    /// Gives each test (each case of a parameterized test) a fresh, private,
    /// fully migrated database copied from `template`, available as
    /// ``FreshDatabase/current``.
    ///
    /// ```swift
    /// enum TestDatabases {
    ///     static let app = SQLiteTemplate(migrator: AppSchema.migrator)
    /// }
    ///
    /// @Suite(.freshDatabase(TestDatabases.app))
    /// struct InboxManagerTests {
    ///     @Test func aNewUserHasNoUnreadMessage() throws {
    ///         let db = try FreshDatabase.current
    ///         #expect(try InboxManager(db: db).unreadCount(for: alice) == 0)
    ///     }
    /// }
    /// ```
    ///
    /// **Semantics:** the template is built once, before the first test that
    /// carries the trait (a failing migration fails that test with its
    /// `DBError`). Each test case gets its own copy, bound for its duration;
    /// when the test returns, the trait waits for the async completions it
    /// scheduled on that database, so none of them runs during another test.
    /// Tests run in parallel as usual: they never share a database.
    ///
    /// **Thread:** the database is bound in the test's task and the child
    /// tasks it creates.
    ///
    /// **Lifetime:** the database is dropped when the test ends; nothing to
    /// clean up.
    ///
    /// - Parameter template: The schema (and fixtures) to copy from;
    ///   typically a `static let`.
    /// - Returns: The trait.
    public static func freshDatabase(_ template: SQLiteTemplate) -> Self {
        FreshDatabaseTrait(template: template)
    }
}
