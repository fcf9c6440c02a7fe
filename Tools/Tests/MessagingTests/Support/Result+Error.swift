extension Result {
    /// The error, or `nil` for a success.
    var error: Failure? {
        if case let .failure(error) = self { error } else { nil }
    }
}
