import TransactionKit

// The transaction log's view of the four mock method types (see
// ``TransactionLoggedMock``).

extension MockMethod: TransactionLoggedMock {
    /// Every call so far, in order: its arguments and the transaction it
    /// ran in (see ``TransactionLog``).
    ///
    /// ```swift
    /// #expect(messages.insert.callRecords.map(\.transaction?.outcome) == [.committed])
    /// ```
    public var callRecords: [MockCall<Arguments>] {
        let state = state.value
        return zip(state.calls, state.callTransactions).map { MockCall(arguments: $0, context: $1) }
    }

    /// The identity of the transaction each call ran in, in call order.
    public var transactionIDs: [DBTransactionID?] {
        state.value.callTransactions.map(\.id)
    }

    /// The transaction each call ran in, as it is now, in call order.
    public var transactions: [LoggedTransaction?] {
        state.value.callTransactions.map(\.transaction)
    }

    /// This method, as the transaction log names it.
    public var member: MockMember {
        MockMember(identity: ObjectIdentifier(self), name: state.value.memberName)
    }
}

extension MockMethodWithClosures: TransactionLoggedMock {
    /// Every call so far, in order: its arguments and the transaction it
    /// ran in (see ``TransactionLog``).
    ///
    /// ```swift
    /// #expect(messages.insert.callRecords.map(\.transaction?.outcome) == [.committed])
    /// ```
    public var callRecords: [MockCall<Arguments>] {
        let state = state.value
        return zip(state.calls, state.callTransactions).map { MockCall(arguments: $0, context: $1) }
    }

    /// The identity of the transaction each call ran in, in call order.
    public var transactionIDs: [DBTransactionID?] {
        state.value.callTransactions.map(\.id)
    }

    /// The transaction each call ran in, as it is now, in call order.
    public var transactions: [LoggedTransaction?] {
        state.value.callTransactions.map(\.transaction)
    }

    /// This method, as the transaction log names it.
    public var member: MockMember {
        MockMember(identity: ObjectIdentifier(self), name: state.value.memberName)
    }
}

extension IsolatedMockMethod: TransactionLoggedMock {
    /// Every call so far, in order: its arguments and the transaction it
    /// ran in (see ``TransactionLog``).
    ///
    /// ```swift
    /// #expect(messages.insert.callRecords.map(\.transaction?.outcome) == [.committed])
    /// ```
    public var callRecords: [MockCall<Arguments>] {
        let state = state
        return zip(state.calls, state.callTransactions).map { MockCall(arguments: $0, context: $1) }
    }

    /// The identity of the transaction each call ran in, in call order.
    public var transactionIDs: [DBTransactionID?] {
        state.callTransactions.map(\.id)
    }

    /// The transaction each call ran in, as it is now, in call order.
    public var transactions: [LoggedTransaction?] {
        state.callTransactions.map(\.transaction)
    }

    /// This method, as the transaction log names it.
    public var member: MockMember {
        MockMember(identity: ObjectIdentifier(self), name: state.memberName)
    }
}

extension IsolatedMockMethodWithClosures: TransactionLoggedMock {
    /// Every call so far, in order: its arguments and the transaction it
    /// ran in (see ``TransactionLog``).
    ///
    /// ```swift
    /// #expect(messages.insert.callRecords.map(\.transaction?.outcome) == [.committed])
    /// ```
    public var callRecords: [MockCall<Arguments>] {
        let state = state
        return zip(state.calls, state.callTransactions).map { MockCall(arguments: $0, context: $1) }
    }

    /// The identity of the transaction each call ran in, in call order.
    public var transactionIDs: [DBTransactionID?] {
        state.callTransactions.map(\.id)
    }

    /// The transaction each call ran in, as it is now, in call order.
    public var transactions: [LoggedTransaction?] {
        state.callTransactions.map(\.transaction)
    }

    /// This method, as the transaction log names it.
    public var member: MockMember {
        MockMember(identity: ObjectIdentifier(self), name: state.memberName)
    }
}
