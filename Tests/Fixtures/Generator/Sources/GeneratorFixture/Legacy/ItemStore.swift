import Foundation
import GRDB
import TransactionKit

/// A legacy class with instance members of every shape `txkit shim` must
/// handle. Some members live in an extension in another file, some in an
/// `#if` block.
package final class ItemStore: Sendable {
    private let limitStorage = AtomicInt(10)

    package init() {}

    /// Inserts an item and returns it.
    @discardableResult
    package func insert(name: String, transaction: StoreTransaction) throws -> Item {
        try transaction.database.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: [name])
        return Item(id: transaction.database.lastInsertedRowID, name: name)
    }

    /// The item with this id.
    package func item(id: Int64, transaction: StoreTransaction) throws -> Item? {
        try Row.fetchOne(transaction.database, sql: "SELECT id, name FROM item WHERE id = ?", arguments: [id])
            .map { Item(id: $0["id"], name: $0["name"]) }
    }

    /// The item with this name (an overload that differs by label).
    package func item(named name: String, transaction: StoreTransaction) throws -> Item? {
        try Row.fetchOne(transaction.database, sql: "SELECT id, name FROM item WHERE name = ?", arguments: [name])
            .map { Item(id: $0["id"], name: $0["name"]) }
    }

    /// Items with this id (an overload that differs by type).
    package func count(_ id: Int64, transaction: StoreTransaction) throws -> Int {
        try Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM item WHERE id = ?", arguments: [id]) ?? 0
    }

    /// Items with this name.
    package func count(_ name: String, transaction: StoreTransaction) throws -> Int {
        try Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM item WHERE name = ?", arguments: [name]) ?? 0
    }

    /// Names in order, with default arguments.
    package func names(limit: Int = 10, offset: Int = 0, transaction: StoreTransaction) throws -> [String] {
        try String.fetchAll(
            transaction.database, sql: "SELECT name FROM item ORDER BY id LIMIT ? OFFSET ?", arguments: [limit, offset])
    }

    /// A generic member with a `where` clause.
    package func decode<T: Decodable & Sendable>(_ type: T.Type, json: String, transaction: StoreTransaction) throws -> T
    where T: Equatable {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    /// A typed-throws member that takes no transaction.
    package func validate(_ name: String) throws(StoreError) -> String {
        if name.isEmpty { throw .emptyName }
        return name
    }

    /// A `rethrows` member with a non-escaping closure.
    package func transform(_ names: [String], _ body: (String) throws -> String) rethrows -> [String] {
        try names.map(body)
    }

    /// An escaping closure.
    package func whenInserted(_ handler: @escaping @Sendable (Item) -> Void, transaction: StoreTransaction) {
        _ = handler
    }

    /// An `inout` parameter.
    package func normalize(_ name: inout String, transaction: StoreTransaction) {
        name = name.trimmingCharacters(in: .whitespaces)
    }

    /// An optional tuple result.
    package func itemAndCount(id: Int64, transaction: StoreTransaction) throws -> (Item, Int)? {
        guard let item = try item(id: id, transaction: transaction) else { return nil }
        return (item, try count(id, transaction: transaction))
    }

    /// An opaque result.
    package func summary(transaction: StoreTransaction) -> some CustomStringConvertible & Sendable {
        "store"
    }

    /// An existential result.
    package func label(transaction: StoreTransaction) -> any CustomStringConvertible & Sendable {
        42
    }

    /// A settable instance property.
    package var limit: Int {
        get { limitStorage.load(ordering: .relaxed) }
        set { limitStorage.store(newValue, ordering: .relaxed) }
    }

    /// A read-only instance property.
    package var name: String { "items" }
}
