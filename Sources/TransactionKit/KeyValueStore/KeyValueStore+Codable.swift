#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KeyValueStore {
    /// The `Decodable` value stored for `key` as JSON, or `nil`.
    ///
    /// ```swift
    /// struct Cursor: Codable { var conversationID: Int; var messageID: Int }
    /// let cursor = try inbox.getCodable("lastSeen", as: Cursor.self, transaction: tx)
    /// ```
    ///
    /// **Transaction semantics:** reads the transaction's snapshot,
    /// including its own uncommitted writes.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - type: The type to decode; inferred when the context gives it.
    ///   - transaction: The transaction to read in.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The decoded value, or `nil` when there is no value.
    /// - Throws: ``KeyValueStoreError/Kind/typeMismatch`` when the value is not
    ///   text, ``KeyValueStoreError/Kind/decodingFailed`` when the text does
    ///   not decode as `type`; ``DBError`` when the storage fails.
    ///   ``KeyValueStoreError/Kind/invalidKey`` when the key or the collection
    ///   contains U+0000.
    public func getCodable<T: Decodable>(
        _ key: String,
        as type: T.Type = T.self,
        transaction: DBReadTransaction,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws -> T? {
        switch try typedValue(key, transaction, "getCodable", file, line) {
        case nil:
            return nil
        case let .text(json)?:
            do {
                return try JSONDecoder().decode(T.self, from: Data(json.utf8))
            } catch {
                throw KeyValueStoreError(
                    kind: .decodingFailed, collection: collection, key: key,
                    expected: String(reflecting: T.self), found: "\(error)")
            }
        case let other?:
            throw mismatch(key, expected: "text (JSON of \(String(reflecting: T.self)))", found: other)
        }
    }

    /// Stores `value` for `key` as JSON text.
    ///
    /// ```swift
    /// try inbox.setCodable(Cursor(conversationID: 7, messageID: 42), key: "lastSeen", transaction: tx)
    /// ```
    ///
    /// The JSON is encoded by `JSONEncoder` with sorted keys (the same value
    /// gives the same text), and stored as text so that SQL reads it with
    /// SQLite's JSON functions: `value ->> '$.messageID'`.
    ///
    /// **Transaction semantics:** as ``setValue(_:key:transaction:file:line:)``.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The key.
    ///   - transaction: The write transaction.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Throws: ``KeyValueStoreError/Kind/encodingFailed`` when `value` does
    ///   not encode (nothing is written then); ``DBError`` when the storage
    ///   fails. ``KeyValueStoreError/Kind/invalidKey`` when the key or the
    ///   collection contains U+0000.
    public func setCodable<T: Encodable>(
        _ value: T, key: String, transaction: DBWriteTransaction, file: StaticString = #fileID, line: UInt = #line
    ) throws {
        let storage = try storage(transaction, "setCodable", key, file, line)
        let json: String
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            json = String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw KeyValueStoreError(
                kind: .encodingFailed, collection: collection, key: key,
                expected: String(reflecting: T.self), found: "\(error)")
        }
        try storage.setValue(.text(json), forKey: key, in: collection, transaction)
        transaction.recordChange(keyValueCollection: collection)
    }
}
