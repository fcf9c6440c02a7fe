#if Postgres
import TransactionKit

/// The copies of one ``PostgresTemplate``, made and dropped by one
/// background worker so that a test neither waits for `CREATE DATABASE`
/// nor for `DROP DATABASE` while enough copies are ready.
///
/// One worker does all the server work, one statement at a time: PostgreSQL
/// refuses to copy a template while another copy of it is being made, and a
/// second worker would only compete with the tests for the same server.
/// The worker serves, in order: tests that wait for a copy, copies to drop,
/// then spares up to ``spares``.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
actor PostgresTemplateCopies {
    /// How many copies are kept ready ahead of the tests.
    let spares: Int

    private let create: @Sendable () async throws -> String
    private let dropDatabase: @Sendable (String) async throws -> Void
    private var ready: [String] = []
    private var waiting: [CheckedContinuation<String, any Error>] = []
    private var toDrop: [String] = []
    private var worker: Task<Void, Never>?
    private var idle: [CheckedContinuation<Void, Never>] = []
    /// The last refill's failure, reported to the next test that waits.
    private var refillFailure: (any Error)?

    /// - Parameters:
    ///   - spares: Copies to keep ready (0: each copy is made on demand).
    ///   - create: Makes a new copy and returns its name.
    ///   - drop: Drops a copy by name.
    init(
        spares: Int,
        create: @escaping @Sendable () async throws -> String,
        drop: @escaping @Sendable (String) async throws -> Void
    ) {
        self.spares = max(0, spares)
        self.create = create
        self.dropDatabase = drop
    }

    /// A ready copy's name, at once when a spare is ready; otherwise when
    /// the worker has made one.
    ///
    /// - Throws: What making the copy threw.
    func take() async throws -> String {
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

    /// Drops `name` in the background.
    func drop(_ name: String) {
        toDrop.append(name)
        startWorker()
    }

    /// Starts refilling the spares and waits until the worker is idle:
    /// every spare made (or its failure recorded), every drop done.
    func settle() async {
        startWorker()
        guard worker != nil else { return }
        await withCheckedContinuation { idle.append($0) }
    }

    /// Waits for pending work, then drops the spares; later ``take()``
    /// calls make copies again.
    func dropSpares() async {
        await settle()
        let spares = ready
        ready = []
        for name in spares {
            try? await dropDatabase(name)
        }
    }

    /// The names of the spares ready now (for tests).
    var readyNames: [String] { ready }

    // MARK: - Worker

    private enum Job {
        case serveWaiter
        case drop(String)
        case makeSpare
    }

    private var hasWork: Bool {
        !waiting.isEmpty || !toDrop.isEmpty || (ready.count < spares && refillFailure == nil)
    }

    private func nextJob() -> Job? {
        if !waiting.isEmpty { return .serveWaiter }
        if !toDrop.isEmpty { return .drop(toDrop.removeFirst()) }
        if ready.count < spares && refillFailure == nil { return .makeSpare }
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
                let result: Result<String, any Error>
                do { result = .success(try await create()) } catch { result = .failure(error) }
                // Only the worker removes waiters: the first is still there.
                waiting.removeFirst().resume(with: result)
            case let .drop(name):
                try? await dropDatabase(name)
            case .makeSpare:
                do {
                    ready.append(try await create())
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
