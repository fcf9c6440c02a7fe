import TransactionKit

/// A value behind a lock, so that a mock holding it is honestly `Sendable`:
/// swift-dependencies' `LockIsolated` idea, for test doubles.
///
/// ```swift
/// final class NotifierMock: MessageNotifying, Sendable {
///     let sent = Locked<[Message]>([])
///
///     func notify(_ message: Message) {
///         sent.withValue { $0.append(message) }
///     }
/// }
/// ```
///
/// **Threads:** any; every access takes the lock.
///
/// - Warning: Do not use the same `Locked` from inside ``withValue(_:)``'s
///   closure: the lock is not recursive. Keep that closure short.
public final class Locked<Value: Sendable>: Sendable {
    private let storage: LockedValue<Value>

    /// Creates a box holding `value`.
    ///
    /// - Parameter value: The initial value.
    public init(_ value: Value) {
        storage = LockedValue(value)
    }

    /// The current value (a copy, taken under the lock).
    public var value: Value {
        storage.withLock { $0 }
    }

    /// Replaces the value.
    ///
    /// - Parameter newValue: The new value.
    public func setValue(_ newValue: Value) {
        storage.withLock { $0 = newValue }
    }

    /// Reads or changes the value under the lock, and returns what `body`
    /// returns.
    ///
    /// ```swift
    /// let count = calls.withValue { $0.append(call); return $0.count }
    /// ```
    ///
    /// - Parameter body: Runs with exclusive access to the value.
    public func withValue<T: Sendable>(_ body: (inout sending Value) throws -> sending T) rethrows -> T {
        try storage.withLock { try body(&$0) }
    }
}
