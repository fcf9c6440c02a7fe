#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Booleans, integers, doubles and dates (stored as INTEGER and REAL).
extension KeyValueStore {
    // MARK: - Booleans

    /// The boolean stored for `key`, or `nil`.
    ///
    /// ```swift
    /// let muted = try settings.getBool("muted", transaction: tx)
    /// ```
    ///
    /// Any integer reads as a boolean: 0 is `false`, anything else `true`.
    ///
    /// **Transaction semantics:** reads the transaction's snapshot,
    /// including its own uncommitted writes.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - transaction: The transaction to read in.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The boolean, or `nil` when there is no value.
    /// - Throws: ``KeyValueStoreError/Kind/typeMismatch`` when the value is not
    ///   an integer; ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func getBool(
        _ key: String, transaction: DBReadTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws -> Bool? {
        switch try typedValue(key, transaction, "getBool", file, line) {
        case nil: return nil
        case let .integer(integer)?: return integer != 0
        case let other?: throw mismatch(key, expected: "integer", found: other)
        }
    }

    /// The boolean stored for `key`, or `defaultValue` when there is none.
    ///
    /// ```swift
    /// if try settings.getBool("muted", defaultValue: false, transaction: tx) { return }
    /// ```
    ///
    /// **Transaction semantics:** as ``getBool(_:transaction:file:line:)``.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - defaultValue: Returned when there is no value.
    ///   - transaction: The transaction to read in.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The boolean, or `defaultValue`.
    /// - Throws: ``KeyValueStoreError/Kind/typeMismatch`` when the value is not
    ///   an integer (the default does not hide a wrong type); ``DBError`` when
    ///   the storage fails. ``KeyValueStoreError/Kind/invalidKey`` when the key
    ///   or the collection contains U+0000.
    public func getBool(
        _ key: String,
        defaultValue: Bool,
        transaction: DBReadTransaction,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws -> Bool {
        try getBool(key, transaction: transaction, file: file, line: line) ?? defaultValue
    }

    /// Stores `value` for `key` as the integer 1 or 0.
    ///
    /// ```swift
    /// try settings.setBool(true, key: "muted", transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** as ``setValue(_:key:transaction:file:line:)``.
    ///
    /// - Parameters:
    ///   - value: The boolean.
    ///   - key: The key.
    ///   - transaction: The write transaction.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Throws: ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func setBool(
        _ value: Bool, key: String, transaction: DBWriteTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        try setOrRemove(.integer(value ? 1 : 0), key, transaction, "setBool", file, line)
    }

    // MARK: - Integers

    /// The integer stored for `key`, or `nil`.
    ///
    /// ```swift
    /// let unread = try counters.getInt("unread", transaction: tx) ?? 0
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
    /// - Returns: The integer, or `nil` when there is no value.
    /// - Throws: ``KeyValueStoreError/Kind/typeMismatch`` when the value is not
    ///   an integer (a real is not rounded), or does not fit in `Int`;
    ///   ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func getInt(
        _ key: String, transaction: DBReadTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws -> Int? {
        switch try typedValue(key, transaction, "getInt", file, line) {
        case nil:
            return nil
        case let .integer(integer)?:
            guard let value = Int(exactly: integer) else {
                throw mismatch(key, expected: "an integer that fits in Int", found: .integer(integer))
            }
            return value
        case let other?:
            throw mismatch(key, expected: "integer", found: other)
        }
    }

    /// The integer stored for `key`, or `defaultValue` when there is none.
    ///
    /// ```swift
    /// let unread = try counters.getInt("unread", defaultValue: 0, transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** as ``getInt(_:transaction:file:line:)``.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - defaultValue: Returned when there is no value.
    ///   - transaction: The transaction to read in.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The integer, or `defaultValue`.
    /// - Throws: ``KeyValueStoreError/Kind/typeMismatch`` when the value is not
    ///   an integer (the default does not hide a wrong type); ``DBError`` when
    ///   the storage fails. ``KeyValueStoreError/Kind/invalidKey`` when the key
    ///   or the collection contains U+0000.
    public func getInt(
        _ key: String,
        defaultValue: Int,
        transaction: DBReadTransaction,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws -> Int {
        try getInt(key, transaction: transaction, file: file, line: line) ?? defaultValue
    }

    /// Stores `value` for `key` as an integer.
    ///
    /// ```swift
    /// try counters.setInt(unread + 1, key: "unread", transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** as ``setValue(_:key:transaction:file:line:)``.
    ///
    /// - Parameters:
    ///   - value: The integer.
    ///   - key: The key.
    ///   - transaction: The write transaction.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Throws: ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func setInt(
        _ value: Int, key: String, transaction: DBWriteTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        try setOrRemove(.integer(Int64(value)), key, transaction, "setInt", file, line)
    }

    // MARK: - Doubles

    /// The number stored for `key`, or `nil`. An integer reads as a double.
    ///
    /// ```swift
    /// let volume = try settings.getDouble("volume", transaction: tx) ?? 0.5
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
    /// - Returns: The number, or `nil` when there is no value.
    /// - Throws: ``KeyValueStoreError/Kind/typeMismatch`` when the value is
    ///   neither a real nor an integer; ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func getDouble(
        _ key: String, transaction: DBReadTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws -> Double? {
        switch try typedValue(key, transaction, "getDouble", file, line) {
        case nil: return nil
        case let .real(real)?: return real
        case let .integer(integer)?: return Double(integer)
        case let other?: throw mismatch(key, expected: "real", found: other)
        }
    }

    /// Stores `value` for `key` as a real.
    ///
    /// ```swift
    /// try settings.setDouble(0.8, key: "volume", transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** as ``setValue(_:key:transaction:file:line:)``.
    ///
    /// - Parameters:
    ///   - value: The number. Not NaN: SQLite stores NaN as `NULL`, which
    ///     is no value.
    ///   - key: The key.
    ///   - transaction: The write transaction.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Throws: ``KeyValueStoreError/Kind/invalidValue`` for NaN (nothing is
    ///   written); ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func setDouble(
        _ value: Double, key: String, transaction: DBWriteTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        try setOrRemove(.real(value), key, transaction, "setDouble", file, line)
    }

    // MARK: - Dates

    /// The date stored for `key`, or `nil`.
    ///
    /// ```swift
    /// let lastSync = try sync.getDate("lastSync", transaction: tx) ?? .distantPast
    /// ```
    ///
    /// A date is stored as the number of seconds since 1970-01-01 00:00 UTC
    /// (a real; an integer reads too), so SQL reads it with
    /// `datetime(value, 'unixepoch')`. It keeps about a microsecond of
    /// precision.
    ///
    /// **Transaction semantics:** reads the transaction's snapshot,
    /// including its own uncommitted writes.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - transaction: The transaction to read in.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The date, or `nil` when there is no value.
    /// - Throws: ``KeyValueStoreError/Kind/typeMismatch`` when the value is
    ///   neither a real nor an integer; ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func getDate(
        _ key: String, transaction: DBReadTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws -> Date? {
        switch try typedValue(key, transaction, "getDate", file, line) {
        case nil: return nil
        case let .real(seconds)?: return Date(timeIntervalSince1970: seconds)
        case let .integer(seconds)?: return Date(timeIntervalSince1970: Double(seconds))
        case let other?: throw mismatch(key, expected: "real (seconds since 1970)", found: other)
        }
    }

    /// Stores `value` for `key` as seconds since 1970-01-01 00:00 UTC (a
    /// real), or removes the value when `value` is `nil`.
    ///
    /// ```swift
    /// try sync.setDate(Date(), key: "lastSync", transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** as ``setValue(_:key:transaction:file:line:)``.
    ///
    /// - Parameters:
    ///   - value: The date, or `nil` to remove the value.
    ///   - key: The key.
    ///   - transaction: The write transaction.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Throws: ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func setDate(
        _ value: Date?, key: String, transaction: DBWriteTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        try setOrRemove(value.map { .real($0.timeIntervalSince1970) }, key, transaction, "setDate", file, line)
    }
}
