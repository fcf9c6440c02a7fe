#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KeyValueStore {
    /// A value as a ``KeyValueStore`` keeps it: one of SQLite's four storage
    /// classes.
    ///
    /// The typed getters and setters of ``KeyValueStore`` convert to and from
    /// these cases; use `Value` directly to seed a `MockDB`, to inspect it,
    /// or to write code that handles any value:
    ///
    /// ```swift
    /// let db = MockDB(keyValues: ["settings": ["theme": "dark", "fontSize": 14, "badges": true]])
    /// #expect(db.keyValues(in: "settings")["theme"] == .text("dark"))
    /// ```
    ///
    /// | setter | stored as |
    /// | --- | --- |
    /// | ``KeyValueStore/setString(_:key:transaction:file:line:)`` | ``text(_:)`` |
    /// | ``KeyValueStore/setBool(_:key:transaction:file:line:)`` | ``integer(_:)``, 0 or 1 |
    /// | ``KeyValueStore/setInt(_:key:transaction:file:line:)`` | ``integer(_:)`` |
    /// | ``KeyValueStore/setDouble(_:key:transaction:file:line:)`` | ``real(_:)`` |
    /// | ``KeyValueStore/setDate(_:key:transaction:file:line:)`` | ``real(_:)``, seconds since 1970-01-01 00:00 UTC |
    /// | ``KeyValueStore/setData(_:key:transaction:file:line:)`` | ``blob(_:)`` |
    /// | ``KeyValueStore/setCodable(_:key:transaction:file:line:)`` | ``text(_:)``, JSON with sorted keys |
    ///
    /// A value has no other type tag: a string and a JSON-encoded value are
    /// both ``text(_:)``, a `Bool` and an `Int` both ``integer(_:)``.
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        /// A signed 64-bit integer (SQLite `INTEGER`).
        case integer(Int64)
        /// A double-precision floating-point number (SQLite `REAL`).
        case real(Double)
        /// A string (SQLite `TEXT`, UTF-8).
        case text(String)
        /// Bytes (SQLite `BLOB`).
        case blob(Data)

        /// The storage class of this value.
        public var storageClass: StorageClass {
            switch self {
            case .integer: .integer
            case .real: .real
            case .text: .text
            case .blob: .blob
            }
        }

        /// The value, for messages and test failures: `integer(3)`,
        /// `text("dark")`, `blob(12 bytes)`.
        public var description: String {
            switch self {
            case let .integer(value): "integer(\(value))"
            case let .real(value): "real(\(value))"
            case let .text(value): "text(\(String(reflecting: value)))"
            case let .blob(value): "blob(\(value.count) bytes)"
            }
        }
    }

    /// The kind of a stored ``Value``: SQLite's storage classes (there is no
    /// `NULL`: a missing value is a missing key).
    public enum StorageClass: String, Sendable, Hashable, CaseIterable {
        /// ``Value/integer(_:)``: booleans and integers.
        case integer
        /// ``Value/real(_:)``: doubles and dates.
        case real
        /// ``Value/text(_:)``: strings and `Codable` values.
        case text
        /// ``Value/blob(_:)``: data.
        case blob
    }
}

extension KeyValueStore.Value: ExpressibleByStringLiteral {
    /// A ``text(_:)`` value: `"dark"`.
    ///
    /// - Parameter value: The string.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

extension KeyValueStore.Value: ExpressibleByIntegerLiteral {
    /// An ``integer(_:)`` value: `14`.
    ///
    /// - Parameter value: The integer.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension KeyValueStore.Value: ExpressibleByFloatLiteral {
    /// A ``real(_:)`` value: `1.5`.
    ///
    /// - Parameter value: The number.
    public init(floatLiteral value: Double) {
        self = .real(value)
    }
}

extension KeyValueStore.Value: ExpressibleByBooleanLiteral {
    /// An ``integer(_:)`` value, 1 for `true` and 0 for `false`, as
    /// ``KeyValueStore/setBool(_:key:transaction:file:line:)`` stores it.
    ///
    /// - Parameter value: The boolean.
    public init(booleanLiteral value: Bool) {
        self = .integer(value ? 1 : 0)
    }
}
