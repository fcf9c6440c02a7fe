/// Where the code under test called a mock's member, and which member: what
/// every failure of a mock names.
struct MockCallSite {
    /// The mock's type and member: `MessageFinderMock.insert(conversationID:body:_:)`.
    let member: String
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// The call site of `function`, a member of the mock type `mock`.
    init<Mock>(
        _ mock: Mock.Type, function: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) {
        member = "\(Mock.self).\(function)"
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// Fails the running test here, as ``recordMockFailure(_:fileID:filePath:line:column:staticFilePath:)``
    /// does.
    func recordFailure(_ message: String) {
        recordMockFailure(
            message, fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column),
            staticFilePath: filePath)
    }

    /// Records that the member was called unstubbed, as
    /// ``unimplemented(_:in:fileID:filePath:line:column:staticFilePath:)``
    /// does, and returns the error to throw.
    func unimplemented() -> UnimplementedError {
        let error = UnimplementedError(method: member)
        recordFailure(error.description)
        return error
    }

    /// The answer of a member that cannot throw after `error`: records the
    /// failure (unless ``unimplemented()`` or ``mockCast(_:to:in:function:fileID:filePath:line:column:)``
    /// already did), then returns ``MockFailureDefault``'s value or stops
    /// the process.
    func failureDefault<Result>(after error: any Error) -> Result {
        let message: String
        switch error {
        case let error as UnimplementedError:
            message = error.description
        case let error as MockTypeMismatchError:
            message = error.description
        default:
            message = "\(member) cannot throw, but its stub threw \(error). Stub it with a closure that returns."
            recordFailure(message)
        }
        if let value = MockFailureDefault.value(of: Result.self) { return value }
        fatalError(
            "\(message) \(member) returns \(Result.self), which has no default answer, so the test cannot go on.",
            file: fileID, line: line)
    }
}
