import TransactionKit

extension MockMethodCore: TransactionLoggedMock {
    /// Every call so far, in order: its arguments and the transaction it
    /// ran in (see ``TransactionLog``).
    ///
    /// ```swift
    /// #expect(messages.insert.callRecords.map(\.transaction?.outcome) == [.committed])
    /// ```
    public var callRecords: [MockCall<Arguments>] {
        state.withLock { $0.calls }
    }

    /// The identity of the transaction each call ran in, in call order.
    public var transactionIDs: [DBTransactionID?] {
        state.withLock { $0.calls.map(\.transactionID) }
    }

    /// The transaction each call ran in, as it is now, in call order.
    public var transactions: [LoggedTransaction?] {
        callRecords.map(\.transaction)
    }

    /// This method, as the transaction log names it.
    public var member: MockMember {
        MockMember(identity: ObjectIdentifier(self), name: state.withLock { $0.memberName })
    }
}
