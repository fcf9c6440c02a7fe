import Foundation
import Messaging
import TransactionKit
import TransactionKitTesting

/// An ``AsyncMessageFinding`` that forwards to another one, and stops the
/// first `insert` after it ran, until the test opens the gate: a way to
/// make another transaction commit in the middle of this one, without
/// timing.
///
/// ```swift
/// let gated = GatedMessageFinder(PostgresMessageFinder())
/// let first = Task { try await chat.send(…) }   // uses gated
/// await gated.waitUntilStopped()
/// … commit a concurrent write …
/// gated.open()
/// try await first.value
/// ```
struct GatedMessageFinder: AsyncMessageFinding {
    let base: any AsyncMessageFinding
    /// How many times `insert` ran, including attempts rolled back later.
    let insertCount = Locked(0)
    private let stopped: AsyncStream<Void>
    private let stoppedContinuation: AsyncStream<Void>.Continuation
    private let opened: AsyncStream<Void>
    private let openedContinuation: AsyncStream<Void>.Continuation

    init(_ base: any AsyncMessageFinding) {
        self.base = base
        (stopped, stoppedContinuation) = AsyncStream.makeStream(of: Void.self)
        (opened, openedContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Returns once the first `insert` has run and waits for ``open()``.
    func waitUntilStopped() async {
        for await _ in stopped { return }
    }

    /// Makes ``waitUntilStopped()`` return even if `insert` never stops
    /// (the transaction failed before it), so that a test fails instead of
    /// waiting forever.
    func abandon() {
        stoppedContinuation.finish()
    }

    /// Lets the first `insert` return.
    func open() {
        openedContinuation.yield()
        openedContinuation.finish()
    }

    func insert(
        conversationID: Int64, senderID: Int64, body: String, sentAt: Date, _ tx: DBWriteTransaction
    ) async throws -> Message {
        let message = try await base.insert(
            conversationID: conversationID, senderID: senderID, body: body, sentAt: sentAt, tx)
        let isFirst = insertCount.withValue { count in
            count += 1
            return count == 1
        }
        if isFirst {
            stoppedContinuation.yield()
            stoppedContinuation.finish()
            for await _ in opened { break }
        }
        return message
    }

    func latestMessage(conversationID: Int64, _ tx: DBReadTransaction) async throws -> Message? {
        try await base.latestMessage(conversationID: conversationID, tx)
    }

    func countMessages(
        conversationID: Int64, after messageID: Int64?, notSentBy userID: Int64, _ tx: DBReadTransaction
    ) async throws -> Int {
        try await base.countMessages(conversationID: conversationID, after: messageID, notSentBy: userID, tx)
    }
}
