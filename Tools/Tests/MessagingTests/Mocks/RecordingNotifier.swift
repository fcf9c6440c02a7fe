import Messaging
import TransactionKitTesting

/// A `MessageNotifying` that remembers every notification, from any thread.
final class RecordingNotifier: MessageNotifying, Sendable {
    struct Notification: Equatable, Sendable {
        let messageID: Int64
        let recipientIDs: [Int64]
    }

    private let recorded = Locked<[Notification]>([])

    /// Every notification so far, in order.
    var notifications: [Notification] {
        recorded.value
    }

    func messageWasSent(_ message: Message, to recipientIDs: [Int64]) {
        recorded.withValue { $0.append(Notification(messageID: message.id, recipientIDs: recipientIDs)) }
    }
}
