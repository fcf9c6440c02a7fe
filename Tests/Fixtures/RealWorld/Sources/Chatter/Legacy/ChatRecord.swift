import Foundation
import GRDB

/// The superclass of every stored model: the members all records share,
/// which subclasses inherit (the shape of a base "database object" class).
package class ChatRecord {
    /// The record's identifier.
    package let uniqueId: String

    package init(uniqueId: String) {
        self.uniqueId = uniqueId
    }

    /// The table that holds records of this class.
    package class var tableName: String { fatalError("subclasses name their table") }

    /// Whether a record with this identifier exists.
    package class func anyExists(uniqueId: String, transaction: ChatReadTransaction) -> Bool {
        let count = try? Int.fetchOne(
            transaction.database, sql: "SELECT COUNT(*) FROM \(tableName) WHERE uniqueId = ?", arguments: [uniqueId])
        return (count ?? 0) > 0
    }

    /// How many records of this class there are.
    package class func anyCount(transaction: ChatReadTransaction) -> Int {
        (try? Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM \(tableName)")) ?? 0
    }

    /// A new identifier.
    package static func newUniqueId() -> String {
        UUID().uuidString
    }
}
