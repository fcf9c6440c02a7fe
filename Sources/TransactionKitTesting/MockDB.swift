import TransactionKit

/// A fake ``/TransactionKit/DB`` for unit tests: deterministic, in memory, inspectable, and
/// linked to no database at all.
///
/// `MockDB` is to `SQLiteDB` what NIO's `EmbeddedChannel` is to a socket. It
/// hands out the same transactions, runs blocks in the calling thread or
/// task, and runs the same engine: the same hooks in the same order, nothing
/// after a rollback, and the same misuse checks. It stores no rows (the
/// finders your manager calls are mocks too), but it does store
/// ``/TransactionKit/KeyValueStore`` values, with the same transaction
/// semantics: seed them with ``init(label:isReadOnly:keyValues:logsTransactions:)`` and
/// inspect them with ``keyValues(in:)``.
///
/// ```swift
/// @Test func sendingInsertsOneMessage() throws {
///     let db = MockDB()
///     let messages = MessageFinderMock()
///     let manager = ComposeManager(db: db, messages: messages)
///
///     _ = try manager.send(Draft(text: "Hi"))
///
///     #expect(messages.insertCalls.count == 1)
///     #expect(db.writeCount == 1)
///     #expect(db.commitCount == 1)
/// }
/// ```
///
/// **Isolation:** no shared or global state; tests that create their own
/// `MockDB` run safely in parallel.
///
/// **Threads:** `Sendable`. Writes run one at a time per instance; reads run
/// concurrently.
///
/// **Async blocks:** `MockDB` is also an ``/TransactionKit/AsyncDB``. Its
/// write lock is held while an async block is suspended; a write waiting
/// for it suspends its task when it is async, and blocks its thread when it
/// is synchronous.
///
/// - Warning: A `MockDB` transaction passed to `SQLiteDB.shimOnlyBridge(_:)`
///   stops the process: the code under test reached real data-access code,
///   and the finder that called the bridge must be mocked.
public final class MockDB: DB, DatabaseScopeProviding {
    /// What a `MockDB` has seen so far.
    public struct Statistics: Sendable, Equatable {
        /// Read transactions opened.
        public var reads = 0
        /// Write transactions opened.
        public var writes = 0
        /// Write transactions committed.
        public var commits = 0
        /// Write transactions rolled back (the block or a finalization threw,
        /// or a failure was injected).
        public var rollbacks = 0

        /// Creates statistics, for comparing with ``MockDB/statistics``.
        public init(reads: Int = 0, writes: Int = 0, commits: Int = 0, rollbacks: Int = 0) {
            self.reads = reads
            self.writes = writes
            self.commits = commits
            self.rollbacks = rollbacks
        }
    }

    /// A short name used in misuse messages and errors.
    public let label: String

    let engine: TransactionEngine<MockBackend>
    /// The transaction log (see ``transactionLog``).
    let recorder: MockTransactionRecorder

    /// Whether this database refuses writes, like an `SQLiteDB` opened with
    /// `SQLiteDB.Options.readOnly`.
    public var isReadOnly: Bool { engine.backend.isReadOnly }

    /// Creates an independent mock database.
    ///
    /// ```swift
    /// let db = MockDB()
    /// let archive = MockDB(label: "archive", isReadOnly: true)
    /// let configured = MockDB(keyValues: ["settings": ["theme": "dark", "fontSize": 14]])
    /// ```
    ///
    /// - Parameters:
    ///   - label: Names this database in messages and errors (where
    ///     `SQLiteDB` names its path); defaults to `MockDB`.
    ///   - isReadOnly: When `true`, every `write` throws ``/TransactionKit/DBError`` of kind
    ///     ``/TransactionKit/DBError/Kind/readOnly`` before its block runs, the same error
    ///     an `SQLiteDB` opened read-only throws. Reads work as usual.
    ///   - keyValues: Values the database's ``/TransactionKit/KeyValueStore``
    ///     holds from the start, by collection then key, as if a transaction
    ///     had committed them (also on a read-only database). See
    ///     ``seedKeyValues(_:in:)`` to add more later.
    ///   - logsTransactions: Whether ``transactionLog`` records every
    ///     transaction (the default). Pass `false` for a test that runs
    ///     very many transactions and reads no log: the log then stays
    ///     empty, and mocks see this database's transactions as they see
    ///     those of `SQLiteDB` (from their first call in each).
    public init(
        label: String = "MockDB",
        isReadOnly: Bool = false,
        keyValues: [String: [String: KeyValueStore.Value]] = [:],
        logsTransactions: Bool = true
    ) {
        self.label = label
        let keyValueStorage = MockKeyValueStorage(seed: keyValues)
        let recorder = MockTransactionRecorder()
        self.recorder = recorder
        let scope = DatabaseScope(
            databaseName: "MockDB", connectionType: nil, keyValueStorage: keyValueStorage,
            savepoints: keyValueStorage, tracer: logsTransactions ? recorder : nil)
        self.engine = TransactionEngine(
            backend: MockBackend(keyValues: keyValueStorage, scope: scope, label: label, isReadOnly: isReadOnly),
            scope: scope)
    }

    /// The storage side, for the `MockDB+KeyValues.swift` extension.
    var backend: MockBackend { engine.backend }

    /// Closes the database, as `SQLiteDB.close()` does: every `read` or
    /// `write` begun afterwards throws ``/TransactionKit/DBError`` of kind
    /// ``/TransactionKit/DBError/Kind/closed``. Idempotent.
    ///
    /// ```swift
    /// db.close()
    /// #expect(throws: DBError.self) { try manager.inbox(for: alice) }
    /// ```
    ///
    /// A `MockDB` has no file to checkpoint, so closing cannot fail; to test
    /// how code reacts to a failed close, stub the component that closes.
    public func close() {
        _ = engine.backend.state.markClosed()
    }

    // MARK: - Inspection

    /// Counts of transactions opened, committed and rolled back.
    public var statistics: Statistics {
        engine.backend.state.statistics
    }

    /// The number of read transactions opened so far.
    public var readCount: Int { statistics.reads }

    /// The number of write transactions opened so far.
    public var writeCount: Int { statistics.writes }

    /// The number of write transactions committed so far.
    public var commitCount: Int { statistics.commits }

    /// The number of write transactions rolled back so far.
    public var rollbackCount: Int { statistics.rollbacks }

    /// The number of async completions handed to their queue or executor
    /// that have not finished running yet.
    public var pendingAsyncCompletionCount: Int {
        engine.scope.pendingAsyncCompletionCount
    }

    /// Suspends until every async completion scheduled so far has run.
    ///
    /// ```swift
    /// try manager.send(draft)
    /// await db.waitForAsyncCompletions()
    /// #expect(notifier.notifications.count == 1)
    /// ```
    public func waitForAsyncCompletions() async {
        await engine.scope.waitForAsyncCompletions()
    }

    /// Resets the counters in ``statistics`` to zero.
    public func resetStatistics() {
        engine.backend.state.resetStatistics()
    }

    // MARK: - Fault injection

    /// Makes the next commit fail with `error` instead of committing, so that
    /// tests can check how code reacts to a storage fault.
    ///
    /// ```swift
    /// db.failNextCommit(with: DBError(kind: .diskFull, operation: .commit, path: "MockDB", message: "full"))
    /// #expect(throws: DBError.self) { try manager.send(draft) }
    /// ```
    ///
    /// The failing transaction is rolled back exactly as `SQLiteDB` would:
    /// its finalizations ran, its completions never do.
    ///
    /// - Parameter error: The error the next `write` throws.
    public func failNextCommit(with error: DBError) {
        engine.backend.state.failNextCommit(with: error)
    }

    /// The database's scope, for commit observation.
    package var databaseScope: DatabaseScope { engine.scope }

    // MARK: - DB

    /// Runs `block` in a read transaction. See `DB.read`.
    public func read<T>(_ block: (DBReadTransaction) throws -> T, file: StaticString, line: UInt) throws -> T {
        try engine.read(at: CallSite(file: file, line: line), block)
    }

    /// Runs `block` in a write transaction. See `DB.write`.
    public func write<T>(_ block: (DBWriteTransaction) throws -> T, file: StaticString, line: UInt) throws -> T {
        try engine.write(at: CallSite(file: file, line: line), block)
    }

    /// Runs `block` in a read transaction, in the calling task.
    public func read<T: Sendable>(
        _ block: @Sendable (DBReadTransaction) throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T {
        try await engine.read(at: CallSite(file: file, line: line), block)
    }

    /// Runs `block` in a write transaction, in the calling task.
    public func write<T: Sendable>(
        _ block: @Sendable (DBWriteTransaction) throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T {
        try await engine.write(at: CallSite(file: file, line: line), block)
    }
}
