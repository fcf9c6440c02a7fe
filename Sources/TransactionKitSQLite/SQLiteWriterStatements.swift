import GRDB

/// The writer connection's ``SQLiteTransactionStatements``, prepared on the
/// first transaction that needs them, on the writer's queue.
///
/// It keeps the writer alive (`writer`), so that however the `SQLiteDB` is
/// released, the statements are finalized before the connection closes:
/// SQLite refuses to close a connection whose statements are left.
///
/// Only the writer's queue touches `statements` (``finalize()`` is called
/// from a write access, or from `deinit`, when nothing else can), and no
/// access to it spans a call: its runtime exclusivity check, paid by every
/// transaction on the writer, is off.
final class SQLiteWriterStatements: @unchecked Sendable {
    private let writer: any DatabaseWriter
    @exclusivity(unchecked) private var statements: SQLiteTransactionStatements?

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    deinit {
        statements?.finalize()
    }

    /// The statements, prepared on `db` (the writer's connection) the first
    /// time.
    func statements(on db: Database) throws -> SQLiteTransactionStatements {
        if let statements {
            return statements
        }
        let made = try SQLiteTransactionStatements(db)
        statements = made
        return made
    }

    /// Finalizes the statements, before the writer closes.
    func finalize() {
        statements?.finalize()
        statements = nil
    }
}
