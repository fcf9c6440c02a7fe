/// An error about a value of a ``KeyValueStore``: it is not of the type the
/// getter asked for, or it cannot be encoded or decoded.
///
/// ```swift
/// do {
///     let size = try settings.getInt("fontSize", transaction: tx)
/// } catch let error as KeyValueStoreError where error.kind == .typeMismatch {
///     log(error)   // "settings"/"fontSize": expected integer, found text("large")
/// }
/// ```
///
/// A read never crashes on a value of the wrong type: the getter throws this
/// error, and the transaction stays usable (catch it and go on, or let it
/// roll a write back). Storage faults are not `KeyValueStoreError`s: on
/// `SQLiteDB` they are thrown as ``DBError``, as for any other statement.
public struct KeyValueStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The stored value has another storage class than the getter reads
        /// (``KeyValueStore/getInt(_:transaction:file:line:)`` on a
        /// ``KeyValueStore/Value/text(_:)``, for example), or does not fit the
        /// type (an integer too large for `Int`).
        case typeMismatch
        /// ``KeyValueStore/getCodable(_:as:transaction:file:line:)`` found text
        /// that does not decode as the requested type.
        case decodingFailed
        /// ``KeyValueStore/setCodable(_:key:transaction:file:line:)`` could not
        /// encode the value as JSON.
        case encodingFailed
        /// The value cannot be stored: a ``KeyValueStore/Value/real(_:)``
        /// that is NaN (SQLite stores NaN as `NULL`, which is no value), or a
        /// ``KeyValueStore/Value/text(_:)`` that contains U+0000 (SQLite's
        /// text ends there). Nothing is written.
        case invalidValue
        /// The key or the collection contains U+0000, where SQLite's text
        /// ends (so two such keys could not be told apart). Nothing is read
        /// or written.
        case invalidKey
        /// The transaction comes from a ``DB`` that has no key-value storage
        /// (neither `SQLiteDB` nor `MockDB`).
        case unsupportedDatabase
    }

    /// What went wrong.
    public var kind: Kind
    /// The store's collection.
    public var collection: String
    /// The key whose value was read or written.
    public var key: String
    /// What the getter or setter expected: a storage class (`integer`), or a
    /// Swift type name for `Codable` values.
    public var expected: String
    /// What was found: the stored value (`text("large")`), or the encoder's
    /// or decoder's message.
    public var found: String

    /// Creates an error, for mocks and tests that need to throw one.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - collection: The store's collection.
    ///   - key: The key.
    ///   - expected: What was expected.
    ///   - found: What was found.
    public init(kind: Kind, collection: String, key: String, expected: String, found: String) {
        self.kind = kind
        self.collection = collection
        self.key = key
        self.expected = expected
        self.found = found
    }

    /// One sentence naming the collection, the key, and what was expected
    /// and found.
    public var description: String {
        let place = "\(String(reflecting: collection))/\(String(reflecting: key))"
        switch kind {
        case .typeMismatch:
            return "KeyValueStore \(place): expected \(expected), found \(found)"
        case .decodingFailed:
            return "KeyValueStore \(place): cannot decode \(expected) from the stored JSON: \(found)"
        case .encodingFailed:
            return "KeyValueStore \(place): cannot encode \(expected) as JSON: \(found)"
        case .invalidValue:
            return "KeyValueStore \(place): cannot store \(found): expected \(expected)"
        case .invalidKey:
            return "KeyValueStore \(place): invalid \(found): expected \(expected)"
        case .unsupportedDatabase:
            return "KeyValueStore \(place): the transaction's database (\(found)) has no key-value storage; "
                + "use a transaction of a database that has one (its documentation says so)"
        }
    }
}
