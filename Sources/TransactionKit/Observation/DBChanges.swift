/// What one committed write transaction changed, as a commit observer hears
/// it: tables and key-value collections.
///
/// ```swift
/// let observation = db.observeCommits(tables: ["message"], keyValueCollections: ["settings"]) { changes in
///     if changes.tables.contains("message") { inbox.reload() }
///     if changes.keyValueCollections.contains("settings") { theme.reload() }
/// }
/// ```
///
/// An observer receives only what it registered for, with table names
/// spelled as it spelled them. A table is changed when `SQLiteDB` saw a row
/// of it inserted, updated or deleted, or when the transaction declared it
/// with ``DBWriteTransaction/declareChange(table:file:line:)``. A collection
/// is changed when a ``KeyValueStore`` set a value in it or removed one.
public struct DBChanges: Sendable, Hashable, CustomStringConvertible {
    /// The changed tables.
    public var tables: Set<String>
    /// The changed ``KeyValueStore`` collections.
    public var keyValueCollections: Set<String>

    /// Creates a set of changes, for comparing with what an observer received.
    ///
    /// ```swift
    /// #expect(received == [DBChanges(keyValueCollections: ["settings"])])
    /// ```
    ///
    /// - Parameters:
    ///   - tables: Changed tables.
    ///   - keyValueCollections: Changed key-value collections.
    public init(tables: Set<String> = [], keyValueCollections: Set<String> = []) {
        self.tables = tables
        self.keyValueCollections = keyValueCollections
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        tables.isEmpty && keyValueCollections.isEmpty
    }

    /// The changes, sorted: `tables: [message], collections: [settings]`.
    public var description: String {
        "tables: \(tables.sorted()), collections: \(keyValueCollections.sorted())"
    }
}
