/// What one fetch of a value observation read, and so which commits may
/// change its value.
struct ObservedReads: Sendable {
    /// Tables by their ASCII-lowercased name: declared, or passed as `tracking:`.
    var tables: Set<String> = []
    var keyValueCollections: Set<String> = []
    /// The backend's view of the statements the fetch ran.
    var backendRegion: (any ReadRegion)?
    /// Nothing is known of the reads: every commit may change the value.
    var everyCommit = false

    /// The reads of `tracking`, which replaces whatever the fetch reads.
    init(tracking region: DBRegion) {
        tables = Set(region.tables.map(CommitObservers.asciiLowercased))
        keyValueCollections = region.keyValueCollections
        everyCommit = region.isEmpty
    }

    /// The reads a fetch declared or made.
    init(recorded recorder: ReadRecorder, backendRegion: (any ReadRegion)?) {
        tables = Set(recorder.tables.map(CommitObservers.asciiLowercased))
        keyValueCollections = recorder.keyValueCollections
        if let backendRegion, backendRegion.isFullDatabase {
            everyCommit = true
        } else if let backendRegion, !backendRegion.isEmpty {
            self.backendRegion = backendRegion
        }
        if tables.isEmpty && keyValueCollections.isEmpty && self.backendRegion == nil {
            everyCommit = true
        }
    }

    /// Whether a commit with `changes` may change the fetched value.
    func matches(_ changes: DBChanges) -> Bool {
        if changes.isEmpty { return false }
        if everyCommit { return true }
        if !keyValueCollections.isDisjoint(with: changes.keyValueCollections) { return true }
        for table in changes.tables {
            let lowercased = CommitObservers.asciiLowercased(table)
            if tables.contains(lowercased) { return true }
            if let backendRegion, backendRegion.isModified(byTable: table) { return true }
        }
        return false
    }
}

extension ObservedReads {
    /// Runs `body` in `transaction`, and returns what it read beside its
    /// result: the reads it declared, and the backend's view of them.
    static func recording<T>(
        _ transaction: DBReadTransaction, _ body: () throws -> T
    ) throws -> (T, ObservedReads?) {
        let recorder = ReadRecorder()
        transaction.readRecorder = recorder
        defer { transaction.readRecorder = nil }
        guard let tracking = transaction.scope.readTracking else {
            let value = try body()
            return (value, ObservedReads(recorded: recorder, backendRegion: nil))
        }
        let (value, region) = try tracking.trackingReads(of: transaction, body)
        var reads = ObservedReads(recorded: recorder, backendRegion: region)
        // The backend reads tables but could not tell which this time.
        reads.everyCommit = reads.everyCommit || region == nil
        return (value, reads)
    }

    /// The async form, for ``AsyncDB``: only declared reads are known.
    static func recording<T>(
        _ transaction: DBReadTransaction, _ body: () async throws -> T
    ) async throws -> (T, ObservedReads?) {
        let recorder = ReadRecorder()
        transaction.readRecorder = recorder
        defer { transaction.readRecorder = nil }
        let value = try await body()
        return (value, ObservedReads(recorded: recorder, backendRegion: nil))
    }
}
