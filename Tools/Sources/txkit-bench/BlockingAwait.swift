import Dispatch
import Synchronization

/// Runs async work from the synchronous harness: starts one task and
/// blocks the calling thread until it ends.
///
/// The PostgreSQL variants call it once per sample (around the whole loop
/// of iterations), never once per transaction, so that the hand-over (one
/// task, one semaphore) is a few microseconds in a sample of milliseconds,
/// and is the same for every variant of an entry.
///
/// - Warning: Call it only from a thread outside Swift's cooperative pool
///   (the harness runs on the main thread): blocking a pool thread while
///   the task waits for one can deadlock.
enum BlockingAwait {
    /// Runs `operation` in a new task and returns its value, or rethrows
    /// its error.
    static func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            outcome.result.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.result.withLock { $0! }.get()
    }

    /// The task's result, handed to the waiting thread.
    private final class Outcome<T: Sendable>: Sendable {
        let result = Mutex<Result<T, any Error>?>(nil)
    }
}
