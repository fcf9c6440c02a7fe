import Dispatch

extension DBValueObservation {
    /// Delivers each value to `onChange`, for code that does not iterate
    /// asynchronous sequences (UIKit view controllers).
    ///
    /// ```swift
    /// cancellable = db.observe { tx in try messages.unreadCount(for: user, tx) }
    ///     .start(on: .main) { [weak self] count in self?.badge.text = "\(count)" }
    /// ```
    ///
    /// The values and the error are those of iterating the sequence in a
    /// task that the returned cancellable owns.
    ///
    /// - Parameters:
    ///   - queue: Where `onChange` and `onError` run, in order; `nil` runs
    ///     them in the observing task.
    ///   - onError: Receives the error that ended the observation.
    ///   - onChange: Receives each value.
    /// - Returns: The observation's owner: it stops on
    ///   ``DBObservationCancellable/cancel()`` or deallocation.
    public func start(
        on queue: DispatchQueue? = nil,
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onChange: @escaping @Sendable (Value) -> Void
    ) -> DBObservationCancellable {
        let task = Task {
            do {
                for try await value in self {
                    if let queue { queue.async { onChange(value) } } else { onChange(value) }
                }
            } catch {
                if let queue { queue.async { onError(error) } } else { onError(error) }
            }
        }
        return DBObservationCancellable(task: task)
    }
}
