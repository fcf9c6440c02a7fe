import Foundation

/// How many blocks run at once, at most: entered and not yet left.
final class OverlapGauge: @unchecked Sendable {
    // NSLock (a pthread mutex): the thread sanitizer runs this suite.
    private let lock = NSLock()
    private var current = 0
    private var highest = 0

    var maximum: Int { lock.withLock { highest } }

    func enter() {
        lock.withLock {
            current += 1
            highest = max(highest, current)
        }
    }

    func leave() {
        lock.withLock { current -= 1 }
    }
}
