#if Postgres
import Testing
import TransactionKit
import TransactionKitPostgres

/// Binds a fresh copy of a ``PostgresTemplate`` to each test it marks, as
/// ``FreshPostgresDatabase/current``: the trait of
/// ``Testing/Trait/freshDatabase(_:)``.
///
/// On a suite it applies to every test of the suite, each with a copy of
/// its own. The template is prepared before the first test that needs it;
/// each copy is closed and dropped when its test ends, passed or failed.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct FreshPostgresDatabaseTrait: TestTrait, SuiteTrait, TestScoping {
    /// The template the copies come from.
    public let template: PostgresTemplate

    /// Applies to every test of a suite it marks.
    public var isRecursive: Bool { true }

    /// Creates and migrates the template before the test runs.
    public func prepare(for test: Test) async throws {
        try await template.prepare()
    }

    /// Runs one test case with a copy bound to
    /// ``FreshPostgresDatabase/current``, then drops the copy.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else {
            try await function()
            return
        }
        try await template.withDatabase { db in
            try await FreshPostgresDatabase.$bound.withValue(db) {
                try await function()
            }
        }
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Trait where Self == FreshPostgresDatabaseTrait {
    /// Gives each test a fresh PostgreSQL database copied from `template`.
    ///
    /// ```swift
    /// @Test(.freshDatabase(TestDatabases.app))
    /// func sendsAMessage() async throws {
    ///     let db = try FreshPostgresDatabase.current
    ///     …
    /// }
    /// ```
    ///
    /// - Parameter template: The migrated template.
    public static func freshDatabase(_ template: PostgresTemplate) -> Self {
        FreshPostgresDatabaseTrait(template: template)
    }
}
#endif
