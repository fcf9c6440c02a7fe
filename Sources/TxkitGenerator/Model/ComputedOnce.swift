#if Txkit
import Foundation

/// A value computed on first use, once, whichever thread asks first (the
/// others wait for it): the lazy state of the sources and their index,
/// which the scans read on every core.
final class ComputedOnce<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var computed: Value?
    private var compute: (() -> Value)?

    /// `compute` runs on the first read of ``value``, under the lock.
    init(_ compute: @escaping () -> Value) {
        self.compute = compute
    }

    var value: Value {
        lock.withLock {
            if let computed { return computed }
            let value = compute!()
            computed = value
            compute = nil
            return value
        }
    }
}
#endif
