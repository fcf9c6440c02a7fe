import Foundation
import Messaging

/// A ``MessageNotifying`` that remembers every notification, from any thread.
final class RecordingNotifier: MessageNotifying, @unchecked Sendable {
    struct Notification: Equatable {
        let messageID: Int64
        let recipientIDs: [Int64]
    }

    private let lock = NSLock()
    private var storage: [Notification] = []

    var notifications: [Notification] {
        lock.withLock { storage }
    }

    func messageWasSent(_ message: Message, to recipientIDs: [Int64]) {
        lock.withLock { storage.append(Notification(messageID: message.id, recipientIDs: recipientIDs)) }
    }
}
