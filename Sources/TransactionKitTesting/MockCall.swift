import TransactionKit

/// One call a mock's method received: its arguments, and the transaction
/// it ran in.
///
/// ```swift
/// let call = try #require(messages.insert.callRecords.first)
/// #expect(call.arguments.body == "hi")
/// #expect(call.transaction?.isCommittedWrite == true)
/// ```
public struct MockCall<Arguments> {
    /// The call's arguments (a tuple for several).
    public let arguments: Arguments
    let context: MockCallTransaction

    /// The identity of the transaction the call received, or ran inside
    /// (see ``TransactionLog``); `nil` when it ran outside any.
    public var transactionID: DBTransactionID? { context.id }

    /// The transaction the call ran in, as it is now (its outcome once it
    /// ended); `nil` outside a `MockDB` transaction, or after
    /// ``MockDB/resetTransactionLog()``.
    public var transaction: LoggedTransaction? { context.transaction }

    /// Whether the call ran inside a savepoint that rolled back (so far):
    /// what it did was undone, whatever its transaction's outcome. Always
    /// `false` for a call outside a logged transaction, or once
    /// ``MockDB/resetTransactionLog()`` forgot it.
    ///
    /// ```swift
    /// #expect(rows.insert.callRecords.map(\.isInRolledBackSavepoint) == [false, true])
    /// ```
    public var isInRolledBackSavepoint: Bool { context.call?.isInRolledBackSavepoint ?? false }
}

extension MockCall: Sendable where Arguments: Sendable {}

/// A mock's method whose calls the transaction log names: every
/// ``MockMethodCore`` (``MockMethod`` and its variants).
public protocol TransactionLoggedMock: AnyObject {
    /// This method, as the transaction log names it.
    var member: MockMember { get }

    /// The identity of the transaction each call ran in, in call order
    /// (`nil` for a call outside any).
    var transactionIDs: [DBTransactionID?] { get }

    /// The transaction each call ran in, as it is now, in call order (`nil`
    /// for a call outside a `MockDB` transaction).
    var transactions: [LoggedTransaction?] { get }
}

extension TransactionLoggedMock {
    /// Whether the method was called, and every call ran in a write
    /// transaction that committed, outside any savepoint that rolled back:
    /// what every call did was committed.
    public var ranOnlyInCommittedWrites: Bool {
        let transactions = self.transactions
        let member = self.member
        return !transactions.isEmpty && transactions.allSatisfy { transaction in
            guard let transaction, transaction.isCommittedWrite else { return false }
            return !transaction.calls.contains { $0.member == member && $0.isInRolledBackSavepoint }
        }
    }

    /// Whether no call ran in a write that rolled back (calls undone by a
    /// savepoint's rollback do not count: see
    /// ``MockCall/isInRolledBackSavepoint``).
    public var neverRanInRolledBackTransactions: Bool {
        !transactions.contains { $0?.isRolledBack == true }
    }

    /// The one transaction every call ran in: `nil` when the method was not
    /// called, a call ran outside a `MockDB` transaction, or the calls ran
    /// in more than one.
    public var sharedTransaction: LoggedTransaction? {
        let transactions = self.transactions
        guard let first = transactions.first ?? nil else { return nil }
        return transactions.allSatisfy { $0?.id == first.id } ? transactions.last ?? nil : nil
    }
}

/// Where a mock call ran: the transaction it received, or the traced one
/// running around it.
struct MockCallTransaction: Sendable {
    /// The transaction's trace: its identity, and its log when it has one.
    let trace: TransactionTrace?
    /// Where the call is among its log's calls, when it was logged.
    var position: Int? = nil

    static let none = MockCallTransaction(trace: nil)

    var id: DBTransactionID? { trace?.id }

    var transaction: LoggedTransaction? {
        guard let trace, let recorder = trace.tracer as? MockTransactionRecorder else { return nil }
        return recorder.transaction(trace)
    }

    /// The call as its log has it now.
    var call: LoggedCall? {
        guard let position, let recorder = trace?.tracer as? MockTransactionRecorder else { return nil }
        return recorder.call(at: position)
    }

    /// Finds the call's transaction and logs the call there.
    ///
    /// - Parameters:
    ///   - tx: The transaction the call received (already checked), if any.
    ///   - method: The method called.
    ///   - name: The mock's type and member.
    static func record(_ tx: DBReadTransaction?, method: AnyObject, name: @autoclosure () -> String) -> Self {
        let trace: TransactionTrace?
        if let tx {
            if tx.isActive {
                trace = tx.trace?.tracer != nil ? tx.trace : MockTransactionRecorder.adopt(tx)
            } else {
                // An inactive transaction (a misuse the test runner
                // recorded) keeps only what it already had.
                trace = tx.trace
            }
        } else {
            trace = DBReadTransaction.currentTrace
        }
        guard let trace else { return .none }
        guard let recorder = trace.tracer as? MockTransactionRecorder else { return MockCallTransaction(trace: trace) }
        let position = recorder.recordCall(to: MockMember(identity: ObjectIdentifier(method), name: name()), in: trace)
        return MockCallTransaction(trace: trace, position: position)
    }
}
