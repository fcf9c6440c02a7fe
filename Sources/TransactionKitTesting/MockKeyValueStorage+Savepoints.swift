import TransactionKit

/// Savepoints on a ``MockDB``: a stack of the staged key-value changes, so
/// that a savepoint's rollback undoes its key-value writes as SQLite's
/// `ROLLBACK TO` undoes those of its table.
///
/// Only the holder of MockDB's write lock calls these steps (the engine
/// runs them inside a write block), as it alone touches the staging.
extension MockKeyValueStorage: SavepointStorage {
    func perform(_ step: SavepointStep, in transaction: DBWriteTransaction, at callSite: CallSite) {
        switch step {
        case .begin:
            savepointMarks.append(staged)
        case .release:
            _ = savepointMarks.popLast()
        case .rollBack:
            if let mark = savepointMarks.popLast() {
                staged = mark
            }
        }
    }
}
