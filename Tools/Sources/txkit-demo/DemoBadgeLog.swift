import Synchronization

/// The counts the demo's inbox badge reported from its observation queue,
/// kept until the scenario prints them in the narration's order.
final class DemoBadgeLog: Sendable {
    private let counts = Mutex<[Int]>([])

    func record(_ count: Int) {
        counts.withLock { $0.append(count) }
    }

    /// The counts reported since the last call.
    func drain() -> [Int] {
        counts.withLock { counts in
            defer { counts.removeAll() }
            return counts
        }
    }
}
