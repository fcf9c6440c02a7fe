#if Txkit
/// Which TransactionKit transaction a member takes: `DBReadTransaction` or
/// `DBWriteTransaction`.
package enum TransactionKind: Sendable, Hashable, CustomStringConvertible {
    case read, write

    /// The TransactionKit type, as generated code spells it.
    package var typeName: String {
        switch self {
        case .read: "DBReadTransaction"
        case .write: "DBWriteTransaction"
        }
    }

    /// The type name, so that generated text can interpolate a kind.
    package var description: String { typeName }

    /// The kind a type name spells, or `nil` when it is not a TransactionKit
    /// transaction.
    package init?(typeName: String) {
        switch typeName {
        case "DBReadTransaction": self = .read
        case "DBWriteTransaction": self = .write
        default: return nil
        }
    }
}
#endif
