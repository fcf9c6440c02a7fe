#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Strings and data (stored as TEXT and BLOB).
extension KeyValueStore {
    // MARK: - Strings

    /// The string stored for `key`, or `nil`.
    ///
    /// ```swift
    /// let theme = try settings.getString("theme", transaction: tx) ?? "light"
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
    /// - Returns: The string, or `nil` when there is no value.
    /// - Throws: ``KeyValueStoreError/Kind/typeMismatch`` when the value is not
    ///   text; ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func getString(
        _ key: String, transaction: DBReadTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws -> String? {
        switch try typedValue(key, transaction, "getString", file, line) {
        case nil: return nil
        case let .text(string)?: return string
        case let other?: throw mismatch(key, expected: "text", found: other)
        }
    }

    /// Stores `value` for `key` as text, or removes the value when `value`
    /// is `nil`.
    ///
    /// ```swift
    /// try settings.setString("dark", key: "theme", transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** as ``setValue(_:key:transaction:file:line:)``.
    ///
    /// - Parameters:
    ///   - value: The string, or `nil` to remove the value.
    ///   - key: The key.
    ///   - transaction: The write transaction.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Throws: ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidValue`` when the string contains
    ///   U+0000 (nothing is written), ``KeyValueStoreError/Kind/invalidKey``
    ///   when the key or the collection does.
    public func setString(
        _ value: String?, key: String, transaction: DBWriteTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        try setOrRemove(value.map(Value.text), key, transaction, "setString", file, line)
    }


    // MARK: - Data

    /// The bytes stored for `key`, or `nil`.
    ///
    /// ```swift
    /// let avatar = try profile.getData("avatar", transaction: tx)
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
    /// - Returns: The bytes, or `nil` when there is no value.
    /// - Throws: ``KeyValueStoreError/Kind/typeMismatch`` when the value is not
    ///   a blob; ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func getData(
        _ key: String, transaction: DBReadTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws -> Data? {
        switch try typedValue(key, transaction, "getData", file, line) {
        case nil: return nil
        case let .blob(data)?: return data
        case let other?: throw mismatch(key, expected: "blob", found: other)
        }
    }

    /// Stores `value` for `key` as a blob, or removes the value when
    /// `value` is `nil`.
    ///
    /// ```swift
    /// try profile.setData(pngBytes, key: "avatar", transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** as ``setValue(_:key:transaction:file:line:)``.
    ///
    /// - Parameters:
    ///   - value: The bytes (an empty `Data` is a value, not a removal), or
    ///     `nil` to remove the value.
    ///   - key: The key.
    ///   - transaction: The write transaction.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Throws: ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func setData(
        _ value: Data?, key: String, transaction: DBWriteTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        try setOrRemove(value.map(Value.blob), key, transaction, "setData", file, line)
    }
}
