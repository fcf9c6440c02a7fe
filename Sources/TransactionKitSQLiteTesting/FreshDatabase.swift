import Testing
import TransactionKit
import TransactionKitSQLite

/// The fresh database of the running test, bound by the
/// ``Testing/Trait/freshDatabase(_:)`` trait.
///
/// ```swift
/// @Suite(.freshDatabase(TestDatabases.app))
/// struct ComposeManagerTests {
///     @Test func sendingStoresTheMessage() throws {
///         let db = try FreshDatabase.current
///         try ComposeManager(db: db, messages: MessageFinder()).send(Draft(text: "hi"))
///     }
/// }
/// ```
///
/// **Lifetime:** the database is bound for the duration of one test (one
/// case of a parameterized test), in its task and the child tasks it
/// creates; it is dropped at the end of the test.
public enum FreshDatabase {
    @TaskLocal static var bound: SQLiteDB?

    /// The running test's fresh database.
    ///
    /// **Thread:** the test's task and its child tasks (a task-local value);
    /// detached tasks do not see it.
    ///
    /// - Throws: ``MissingTrait`` when the test does not carry the
    ///   `.freshDatabase(_:)` trait (nor its suite): the error says how to
    ///   fix it.
    public static var current: SQLiteDB {
        get throws(MissingTrait) {
            guard let bound else { throw MissingTrait() }
            return bound
        }
    }

    /// The error of ``current`` outside a test that carries the
    /// `.freshDatabase(_:)` trait.
    public struct MissingTrait: Error, CustomStringConvertible {
        /// What went wrong and how to fix it.
        public var description: String {
            "FreshDatabase.current is only set inside a test marked .freshDatabase(template): add the trait to the @Test or its @Suite, or call template.makeDatabase() directly."
        }
    }
}
