#if Postgres && canImport(XCTest)
import TransactionKit
import TransactionKitPostgres
import XCTest

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension XCTestCase {
    /// A fresh PostgreSQL database copied from `template`, closed and
    /// dropped when the test ends.
    ///
    /// ```swift
    /// final class ChatTests: XCTestCase {
    ///     func testSendingStoresTheMessage() async throws {
    ///         let db = try await makeFreshDatabase(from: TestDatabases.app)
    ///         …
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter template: The migrated template.
    /// - Returns: The copy, open.
    /// - Throws: What ``PostgresTemplate/makeDatabase()`` throws.
    public func makeFreshDatabase(from template: PostgresTemplate) async throws -> PostgresDB {
        let db = try await template.makeDatabase()
        addTeardownBlock { @Sendable in
            try? await template.drop(db)
        }
        return db
    }
}
#endif
