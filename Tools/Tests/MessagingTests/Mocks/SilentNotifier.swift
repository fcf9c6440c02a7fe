import Messaging

/// A notifier that ignores everything (exit-test bodies capture nothing).
struct SilentNotifier: MessageNotifying {
    func messageWasSent(_ message: Message, to recipientIDs: [Int64]) {}
}
