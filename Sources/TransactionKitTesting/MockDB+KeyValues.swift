import TransactionKit

extension MockDB {
    /// Sets values in one collection of this database's
    /// ``/TransactionKit/KeyValueStore``, as if a transaction had committed
    /// them: the test's starting state.
    ///
    /// ```swift
    /// let db = MockDB()
    /// db.seedKeyValues(["muted.alice": true, "sound": "chime"], in: "notificationSettings")
    /// ```
    ///
    /// Values already stored for other keys stay. No commit observer hears
    /// about a seed, and the ``statistics`` do not change.
    ///
    /// **Thread:** any; waits for a running write transaction to end, as a
    /// write would.
    ///
    /// - Warning: Do not call it from inside a write block of this database:
    ///   it waits for the write lock that the block holds, forever.
    /// - Parameters:
    ///   - values: The values, by key.
    ///   - collection: The store's collection.
    public func seedKeyValues(_ values: [String: KeyValueStore.Value], in collection: String) {
        backend.withWriteLock {
            backend.keyValues.seed(values, in: collection)
        }
    }

    /// The committed values of one collection of this database's
    /// ``/TransactionKit/KeyValueStore``, by key: what a test inspects after
    /// the code under test ran.
    ///
    /// ```swift
    /// try manager.mute(alice)
    /// #expect(db.keyValues(in: "notificationSettings") == ["muted.alice": true])
    /// ```
    ///
    /// Values of a write transaction that is still running are not there
    /// yet; values of a rolled-back one never are. Two keys that are equal
    /// as Swift strings but not byte for byte (`"é"` precomposed and
    /// decomposed) are distinct in the store, but only one of them can be a
    /// key of the returned dictionary: read such keys through a transaction.
    ///
    /// **Thread:** any; does not wait for a running write.
    ///
    /// - Parameter collection: The store's collection.
    /// - Returns: The values, by key; empty when the collection holds none.
    public func keyValues(in collection: String) -> [String: KeyValueStore.Value] {
        backend.keyValues.committedValues(in: collection)
    }

    /// The collections of this database's ``/TransactionKit/KeyValueStore``
    /// that hold at least one committed value, sorted by their UTF-8 bytes.
    ///
    /// ```swift
    /// #expect(db.keyValueCollections == ["notificationSettings"])
    /// ```
    ///
    /// **Thread:** any; does not wait for a running write.
    public var keyValueCollections: [String] {
        backend.keyValues.committedCollections()
    }
}
