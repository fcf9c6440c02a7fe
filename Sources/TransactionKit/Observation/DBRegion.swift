/// Tables and key-value collections: what a value observation tracks.
///
/// ```swift
/// let unread = db.observe(tracking: DBRegion(tables: ["message"])) { tx in
///     try messages.unreadCount(for: user, tx)
/// }
/// ```
///
/// Table names match case-insensitively (ASCII), as in ``DBChanges``.
public struct DBRegion: Sendable, Hashable, CustomStringConvertible {
    /// Tables, as their names are written.
    public var tables: Set<String>
    /// ``KeyValueStore`` collections.
    public var keyValueCollections: Set<String>

    /// Creates a region.
    ///
    /// - Parameters:
    ///   - tables: Tables, matched case-insensitively (ASCII).
    ///   - keyValueCollections: ``KeyValueStore`` collections.
    public init(tables: Set<String> = [], keyValueCollections: Set<String> = []) {
        self.tables = tables
        self.keyValueCollections = keyValueCollections
    }

    /// Whether the region holds no table and no collection.
    public var isEmpty: Bool {
        tables.isEmpty && keyValueCollections.isEmpty
    }

    public var description: String {
        let tables = tables.sorted().joined(separator: ", ")
        let collections = keyValueCollections.sorted().joined(separator: ", ")
        return "tables: [\(tables)], key-value collections: [\(collections)]"
    }
}
