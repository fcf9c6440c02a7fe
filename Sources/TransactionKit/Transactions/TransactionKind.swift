/// Whether a transaction may write.
package enum TransactionKind: Sendable {
    case read
    case write

    /// The name of the `DB` method that opens such a transaction.
    package var methodName: String {
        switch self {
        case .read: "read"
        case .write: "write"
        }
    }

    /// The public type name of such a transaction.
    package var typeName: String {
        switch self {
        case .read: "DBReadTransaction"
        case .write: "DBWriteTransaction"
        }
    }
}
