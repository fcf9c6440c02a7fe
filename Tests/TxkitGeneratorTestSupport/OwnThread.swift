#if Txkit
import Foundation

/// Blocking work of a test (a child `swift build`, a round of the fuzzer)
/// moved to a thread of its own.
///
/// Swift's cooperative pool has as many threads as the machine has cores
/// (two on CI), and every async test of the run shares them. A test that
/// holds one of them for the minute a child build takes leaves the other
/// tests one thread between them, or none: they run into their time
/// limits. Work run here must not record issues (no test is current on
/// the thread): it returns what the test then checks.
package enum OwnThread {
    /// The stack of the thread: swift-syntax's visitors recurse deeply.
    package static let stackSize = 8 << 20

    /// The value of `work`, run on a new thread, without blocking the
    /// caller's thread while it runs.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result(catching: work)) }
            thread.stackSize = stackSize
            thread.start()
        }
    }
}
#endif
