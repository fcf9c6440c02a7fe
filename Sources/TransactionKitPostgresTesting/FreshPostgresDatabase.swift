#if Postgres
import Testing
import TransactionKit
import TransactionKitPostgres

/// The fresh PostgreSQL database of the running test, bound by the
/// ``Testing/Trait/freshDatabase(_:)`` trait given a ``PostgresTemplate``.
///
/// ```swift
/// @Suite(.enabled(if: PostgresTemplate.isAvailable), .freshDatabase(TestDatabases.app))
/// struct ChatIntegrationTests {
///     @Test func sendingStoresTheMessage() async throws {
///         let db = try FreshPostgresDatabase.current
///         let chat = AsyncChatManager(db: db, …)
///         …
///     }
/// }
/// ```
///
/// **Lifetime:** bound for one test (one case of a parameterized test), in
/// its task and the child tasks it creates; closed and dropped when the
/// test ends.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum FreshPostgresDatabase {
    @TaskLocal static var bound: PostgresDB?

    /// The running test's fresh database.
    ///
    /// **Thread:** the test's task and its child tasks (a task-local
    /// value); detached tasks do not see it.
    ///
    /// - Throws: ``MissingTrait`` outside a test that carries the
    ///   `.freshDatabase(_:)` trait with a ``PostgresTemplate``.
    public static var current: PostgresDB {
        get throws(MissingTrait) {
            guard let bound else { throw MissingTrait() }
            return bound
        }
    }

    /// The error of ``current`` outside a test that carries the trait.
    public struct MissingTrait: Error, CustomStringConvertible {
        /// What went wrong and how to fix it.
        public var description: String {
            "FreshPostgresDatabase.current is only set inside a test marked .freshDatabase(template) with a PostgresTemplate: add the trait to the @Test or its @Suite, or call template.withDatabase { db in … } directly."
        }
    }
}
#endif
