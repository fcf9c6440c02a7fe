#if Postgres
import TransactionKit
import TransactionKitPostgres

/// The copies of one ``PostgresTemplate``, made, opened, closed and dropped
/// by one background worker, so that a test waits neither for `CREATE
/// DATABASE` and its first connection nor for closing and `DROP DATABASE`
/// while enough copies are ready.
///
/// One worker does all the server work, one statement at a time: PostgreSQL
/// refuses to copy a template while another copy of it is being made, and a
/// second worker would only compete with the tests for the same server.
/// The worker serves, in order: tests that wait for a copy, copies to drop,
/// then spares up to ``spares``, once a copy or the spares were asked for
/// and until ``dropSpares()``.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
actor PostgresTemplateCopies {
    /// How many copies are kept ready ahead of the tests.
    let spares: Int

    private let create: @Sendable () async throws -> PostgresDB
    private let dropDatabase: @Sendable (PostgresDB) async -> Void
    private var ready: [PostgresDB] = []
    private var waiting: [CheckedContinuation<PostgresDB, any Error>] = []
    private var toDrop: [PostgresDB] = []
    private var worker: Task<Void, Never>?
    private var idle: [CheckedContinuation<Void, Never>] = []
    /// The last refill's failure, reported to the next test that waits.
    private var refillFailure: (any Error)?
    /// Spares are made once a copy or the spares were asked for: a template
    /// that only ever migrates (or is dropped) makes none.
    private var wantsSpares = false
    /// ``dropSpares()`` began: no more spares.
    private var retiring = false

    /// - Parameters:
    ///   - spares: Copies to keep ready (0: each copy is made on demand).
    ///   - create: Makes a new copy and opens it.
    ///   - drop: Closes a copy and drops it.
    init(
        spares: Int,
        create: @escaping @Sendable () async throws -> PostgresDB,
        drop: @escaping @Sendable (PostgresDB) async -> Void
    ) {
        self.spares = max(0, spares)
        self.create = create
        self.dropDatabase = drop
    }

    /// An open copy, at once when a spare is ready; otherwise when the
    /// worker has made one.
    ///
    /// - Throws: What making or opening the copy threw.
    func take() async throws -> PostgresDB {
        wantsSpares = true
        if !ready.isEmpty {
            let name = ready.removeFirst()
            startWorker()
            return name
        }
        if let failure = refillFailure {
            refillFailure = nil
            startWorker()
            throw failure
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiting.append(continuation)
            startWorker()
        }
    }

    /// Closes and drops `db` in the background.
    func drop(_ db: PostgresDB) {
        toDrop.append(db)
        startWorker()
    }

    /// Makes the missing spares and waits until the worker is idle: every
    /// spare made, every drop done.
    ///
    /// - Throws: The failure of a spare that could not be made (a later
    ///   call tries again).
    func fill() async throws {
        wantsSpares = true
        refillFailure = nil
        await settle()
        if let failure = refillFailure {
            refillFailure = nil
            throw failure
        }
    }

    /// Waits until the worker is idle, without asking for spares.
    private func settle() async {
        startWorker()
        guard worker != nil else { return }
        await withCheckedContinuation { idle.append($0) }
    }

    /// Stops making spares, waits for the copies being made and dropped,
    /// then drops the spares; a later ``take()`` makes its copy on demand.
    func dropSpares() async {
        retiring = true
        await settle()
        while !ready.isEmpty {
            // A drop awaits: a copy a test hands back meanwhile is queued
            // for the worker, and no spare is made any more.
            await dropDatabase(ready.removeFirst())
        }
        await settle()
    }

    /// The names of the spares ready now (for tests).
    var readyNames: [String] { ready.map(\.configuration.database) }

    /// How many copies the worker has made (for tests).
    private(set) var made = 0

    // MARK: - Worker

    private enum Job {
        case serveWaiter
        case drop(PostgresDB)
        case makeSpare
    }

    private var needsSpare: Bool {
        wantsSpares && !retiring && refillFailure == nil && ready.count < spares
    }

    private var hasWork: Bool {
        !waiting.isEmpty || !toDrop.isEmpty || needsSpare
    }

    private func nextJob() -> Job? {
        if !waiting.isEmpty { return .serveWaiter }
        if !toDrop.isEmpty { return .drop(toDrop.removeFirst()) }
        if needsSpare { return .makeSpare }
        return nil
    }

    private func startWorker() {
        guard worker == nil, hasWork else { return }
        worker = Task { await self.work() }
    }

    private func work() async {
        while let job = nextJob() {
            switch job {
            case .serveWaiter:
                // A spare made while this waiter queued goes to it first.
                if !ready.isEmpty {
                    waiting.removeFirst().resume(returning: ready.removeFirst())
                    continue
                }
                let result: Result<PostgresDB, any Error>
                do { result = .success(try await create()) } catch { result = .failure(error) }
                if case .success = result {
                    made += 1
                    refillFailure = nil
                }
                // Only the worker removes waiters: the first is still there.
                waiting.removeFirst().resume(with: result)
            case let .drop(db):
                await dropDatabase(db)
            case .makeSpare:
                do {
                    ready.append(try await create())
                    made += 1
                } catch {
                    refillFailure = error
                }
            }
        }
        worker = nil
        let sleepers = idle
        idle = []
        for sleeper in sleepers { sleeper.resume() }
    }
}
#endif
