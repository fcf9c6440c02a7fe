#if Postgres
import TransactionKit

/// Runs an operation that may ignore cancellation (postgres-nio's
/// `PostgresConnection.connect`) with a deadline the caller keeps: after
/// `limit`, the caller gets ``Expired`` at once, and the operation, left to
/// finish in the background, hands its late result to `abandon`.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum PostgresDeadline {
    /// The deadline passed before the operation ended.
    struct Expired: Error {}

    static func run<T: Sendable>(
        within limit: Duration,
        _ operation: @escaping @Sendable () async throws -> T,
        abandon: @escaping @Sendable (T) async -> Void
    ) async throws -> T {
        let race = PostgresRace<T>()
        let work = Task {
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            if !race.finish(result), case let .success(late) = result {
                await abandon(late)
            }
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            _ = race.finish(.failure(Expired()))
        }
        return try await withTaskCancellationHandler {
            try await race.value()
        } onCancel: {
            _ = race.finish(.failure(CancellationError()))
            work.cancel()
            timer.cancel()
        }
    }
}
#endif
