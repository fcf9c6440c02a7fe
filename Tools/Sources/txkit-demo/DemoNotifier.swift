import Foundation
import Messaging
import Synchronization

/// Prints each notification the chat manager sends after a commit, with the
/// recipients' names.
final class DemoNotifier: MessageNotifying, Sendable {
    private let names = Mutex<[Int64: String]>([:])
    private let output: @Sendable (String) -> Void

    /// - Parameter output: Where the notifications are told; standard output by default.
    init(output: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.output = output
    }

    func remember(_ user: User) {
        names.withLock { $0[user.id] = user.name }
    }

    func messageWasSent(_ message: Message, to recipientIDs: [Int64]) {
        let recipients = names.withLock { names in recipientIDs.map { names[$0] ?? "user \($0)" } }
        output("     sync completion, after the commit: notify \(recipients.joined(separator: ", "))")
    }
}
