/// Tells recipients that a message arrived (a push service, a socket, a log).
///
/// ```swift
/// struct PushNotifier: MessageNotifying {
///     func messageWasSent(_ message: Message, to recipientIDs: [Int64]) {
///         push.send("New message", to: recipientIDs)
///     }
/// }
/// ```
///
/// **Transaction semantics:** ``ChatManager`` calls it from a sync
/// completion, after the message is committed, never for a rolled-back one.
///
/// **Thread:** the thread that called `ChatManager.send`.
public protocol MessageNotifying: Sendable {
    /// Called once per committed message, with every member but the sender.
    func messageWasSent(_ message: Message, to recipientIDs: [Int64])
}
