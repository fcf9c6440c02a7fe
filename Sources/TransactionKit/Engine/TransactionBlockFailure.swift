/// Carries an error thrown by the user's block (or a finalization) through the
/// backend, so that it is not mistaken for a storage error. Not nested in
/// ``TransactionEngine``, so that it is not a generic type.
struct TransactionBlockFailure: Error {
    let error: any Error

    init(error: any Error) { self.error = error }
}
