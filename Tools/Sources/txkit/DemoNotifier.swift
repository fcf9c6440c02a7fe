import Foundation
import Messaging

/// Prints each notification the chat manager sends after a commit, with the
/// recipients' names.
final class DemoNotifier: MessageNotifying, @unchecked Sendable {
    private let lock = NSLock()
    private var names: [Int64: String] = [:]

    func remember(_ user: User) {
        lock.withLock { names[user.id] = user.name }
    }

    func messageWasSent(_ message: Message, to recipientIDs: [Int64]) {
        let recipients = lock.withLock { recipientIDs.map { names[$0] ?? "user \($0)" } }
        print("     sync completion, after the commit: notify \(recipients.joined(separator: ", "))")
    }
}
