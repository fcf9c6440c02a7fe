import Messaging

/// A `MessageNotifying` that calls a closure for each notification, on the
/// thread of the notification.
struct CallbackNotifier: MessageNotifying {
    let callback: @Sendable (Message, [Int64]) -> Void

    init(_ callback: @escaping @Sendable (Message, [Int64]) -> Void) {
        self.callback = callback
    }

    func messageWasSent(_ message: Message, to recipientIDs: [Int64]) {
        callback(message, recipientIDs)
    }
}
