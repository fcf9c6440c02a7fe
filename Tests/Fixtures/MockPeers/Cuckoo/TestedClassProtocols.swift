// Ours: the shapes of the two protocols in Cuckoo's
// Tests/Swift/Source/TestedClass.swift (commit 7cef6391), recreated
// without the file's classes.

@available(iOS 42.0, *)
protocol UnavailableProtocol {}

protocol GenericFunctionProtocol {
    func method<T>(param: T) where T: CustomStringConvertible, T: StringProtocol
}
