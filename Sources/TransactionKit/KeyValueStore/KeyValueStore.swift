#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Typed values by key in one collection, read and written in a database's
/// transactions: settings, cursors and flags without a finder of their own.
///
/// ```swift
/// let store = KeyValueStore(collection: "notificationSettings")
/// try store.setBool(true, key: "muted.\(user)", transaction: tx)
/// let muted = try store.getBool("muted.\(user)", defaultValue: false, transaction: tx)
/// ```
///
/// A store is only a name; the data lives in the transaction's database: on
/// `SQLiteDB`, the table `transactionkit_key_value`, created apart from your
/// migrations (a read-only database without it reads as empty); on
/// `MockDB`, the mock's own dictionaries.
///
/// **Transaction semantics** (every backend): a value set in a write is
/// visible to that transaction at once, to others once it commits, never if
/// it rolls back; a read-modify-write loses no update. Commit observers of
/// the collection hear about each commit that set or removed a value in it.
///
/// **Keys and collections:** any strings without U+0000 (refused with a
/// ``KeyValueStoreError``), compared by their UTF-8 bytes, so a precomposed
/// `"é"` and `"e\u{301}"` are two keys.
///
/// - Warning: Using a transaction after its block returned, or from another
///   thread, is a programmer error (see ``DBMisuseError``).
public struct KeyValueStore: Sendable, Hashable {
    /// The name of the collection this store reads and writes.
    public let collection: String

    /// Creates a store for one collection.
    ///
    /// ```swift
    /// let settings = KeyValueStore(collection: "settings")
    /// ```
    ///
    /// Two stores with the same collection read and write the same values.
    ///
    /// - Parameter collection: The collection's name; any string.
    public init(collection: String) {
        self.collection = collection
    }

    // MARK: - Any value

    /// The value stored for `key`, whatever its type, or `nil`.
    ///
    /// ```swift
    /// if case .text(let theme)? = try settings.getValue("theme", transaction: tx) { … }
    /// ```
    ///
    /// **Transaction semantics:** reads the transaction's snapshot,
    /// including its own uncommitted writes.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - transaction: The transaction to read in.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The stored value, or `nil` when there is none.
    /// - Throws: ``DBError`` when the storage fails; ``DBMisuseError`` under a
    ///   test runner after a recorded misuse.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func getValue(
        _ key: String, transaction: DBReadTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws -> Value? {
        let storage = try storage(transaction, "getValue", key, file, line)
        return try storage.value(forKey: key, in: collection, transaction)
    }

    /// Stores `value` for `key`, replacing any value.
    ///
    /// ```swift
    /// try settings.setValue(.integer(3), key: "retries", transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** visible to this transaction at once, to
    /// others after the commit, gone if the transaction rolls back. On
    /// `SQLiteDB` it is one `INSERT … ON CONFLICT DO UPDATE` (an upsert).
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The key.
    ///   - transaction: The write transaction.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Throws: ``KeyValueStoreError/Kind/invalidValue`` for a NaN real;
    ///   ``DBError`` when the storage fails; ``DBMisuseError`` under a test
    ///   runner after a recorded misuse. ``KeyValueStoreError/Kind/invalidKey``
    ///   when the key or the collection contains U+0000.
    public func setValue(
        _ value: Value, key: String, transaction: DBWriteTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        try setOrRemove(value, key, transaction, "setValue", file, line)
    }

    // MARK: - Keys

    /// Whether a value is stored for `key`.
    ///
    /// ```swift
    /// if try !onboarding.hasValue("completedAt", transaction: tx) { showOnboarding() }
    /// ```
    ///
    /// **Transaction semantics:** reads the transaction's snapshot,
    /// including its own uncommitted writes.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - transaction: The transaction to read in.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: `true` when a value of any type is stored for `key`.
    /// - Throws: ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func hasValue(
        _ key: String, transaction: DBReadTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws -> Bool {
        let storage = try storage(transaction, "hasValue", key, file, line)
        return try storage.value(forKey: key, in: collection, transaction) != nil
    }

    /// Every key of this collection, sorted by their UTF-8 bytes (the order
    /// of SQLite's `BINARY` collation).
    ///
    /// ```swift
    /// for key in try drafts.allKeys(transaction: tx) { … }
    /// ```
    ///
    /// **Transaction semantics:** reads the transaction's snapshot,
    /// including its own uncommitted writes.
    ///
    /// - Parameters:
    ///   - transaction: The transaction to read in.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The keys, sorted.
    /// - Throws: ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the collection contains
    ///   U+0000.
    public func allKeys(
        transaction: DBReadTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws -> [String] {
        let storage = try storage(transaction, "allKeys", nil, file, line)
        return try storage.keys(in: collection, transaction)
    }

    /// The number of values in this collection.
    ///
    /// ```swift
    /// let draftCount = try drafts.count(transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** reads the transaction's snapshot,
    /// including its own uncommitted writes.
    ///
    /// - Parameters:
    ///   - transaction: The transaction to read in.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The number of keys.
    /// - Throws: ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the collection contains
    ///   U+0000.
    public func count(
        transaction: DBReadTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws -> Int {
        let storage = try storage(transaction, "count", nil, file, line)
        return try storage.count(in: collection, transaction)
    }

    // MARK: - Removing

    /// Removes the value stored for `key`, if any.
    ///
    /// ```swift
    /// try drafts.removeValue(forKey: conversationID, transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** as ``setValue(_:key:transaction:file:line:)``.
    /// Commit observers of the collection hear about it only when there was
    /// a value to remove.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - transaction: The write transaction.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Throws: ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func removeValue(
        forKey key: String, transaction: DBWriteTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        try setOrRemove(nil, key, transaction, "removeValue", file, line)
    }

    /// Removes every value of this collection (other collections keep
    /// theirs).
    ///
    /// ```swift
    /// try drafts.removeAll(transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** as ``setValue(_:key:transaction:file:line:)``.
    /// Commit observers of the collection hear about it only when there was
    /// a value to remove.
    ///
    /// - Parameters:
    ///   - transaction: The write transaction.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Throws: ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the collection contains
    ///   U+0000.
    public func removeAll(
        transaction: DBWriteTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        let storage = try storage(transaction, "removeAll", nil, file, line)
        if try storage.removeAll(in: collection, transaction) > 0 {
            transaction.recordChange(keyValueCollection: collection)
        }
    }

    // MARK: - Shared steps

    /// Checks the transaction and returns its database's storage.
    func storage(
        _ transaction: DBReadTransaction, _ use: String, _ key: String?, _ file: StaticString, _ line: UInt
    ) throws -> any KeyValueStorage {
        if let misuse = transaction.checkActive(for: "KeyValueStore.\(use)", at: CallSite(file: file, line: line)) {
            throw misuse
        }
        if collection.utf8.contains(0) {
            throw KeyValueStoreError(
                kind: .invalidKey, collection: collection, key: key ?? "",
                expected: "a string without U+0000", found: "collection")
        }
        if let key, key.utf8.contains(0) {
            throw KeyValueStoreError(
                kind: .invalidKey, collection: collection, key: key,
                expected: "a string without U+0000", found: "key")
        }
        transaction.recordKeyValueRead(collection)
        guard let storage = transaction.scope.keyValueStorage else {
            throw KeyValueStoreError(
                kind: .unsupportedDatabase, collection: collection, key: key ?? "",
                expected: "a database with key-value storage", found: transaction.scope.databaseName)
        }
        return storage
    }

    func typedValue(
        _ key: String, _ transaction: DBReadTransaction, _ use: String, _ file: StaticString, _ line: UInt
    ) throws -> Value? {
        try storage(transaction, use, key, file, line).value(forKey: key, in: collection, transaction)
    }

    /// Sets the value, or removes it when `value` is `nil`, and records the
    /// change for commit observers when something changed.
    func setOrRemove(
        _ value: Value?,
        _ key: String,
        _ transaction: DBWriteTransaction,
        _ use: String,
        _ file: StaticString,
        _ line: UInt
    ) throws {
        let storage = try storage(transaction, use, key, file, line)
        switch value {
        case let .real(real)? where real.isNaN:
            throw KeyValueStoreError(
                kind: .invalidValue, collection: collection, key: key, expected: "a number that is not NaN",
                found: "real(nan)")
        case let .text(text)? where text.utf8.contains(0):
            throw KeyValueStoreError(
                kind: .invalidValue, collection: collection, key: key, expected: "text without U+0000",
                found: "text containing U+0000")
        default:
            break
        }
        if let value {
            try storage.setValue(value, forKey: key, in: collection, transaction)
        } else if try !storage.removeValue(forKey: key, in: collection, transaction) {
            return
        }
        transaction.recordChange(keyValueCollection: collection)
    }

    func mismatch(_ key: String, expected: String, found: Value) -> KeyValueStoreError {
        KeyValueStoreError(
            kind: .typeMismatch, collection: collection, key: key, expected: expected, found: found.description)
    }
}
