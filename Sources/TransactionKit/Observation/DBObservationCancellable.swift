/// Owns a value observation started with
/// ``DBValueObservation/start(on:onError:onChange:)``: the observation
/// stops when it is cancelled or deallocated.
public final class DBObservationCancellable: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    deinit {
        task.cancel()
    }

    /// Stops the observation: no value is delivered after the one being
    /// delivered, if any.
    public func cancel() {
        task.cancel()
    }
}
