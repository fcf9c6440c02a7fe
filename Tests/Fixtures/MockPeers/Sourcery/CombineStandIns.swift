// Ours, not Sourcery's: AutoMockable.swift names Combine's types, which
// Linux lacks. Where Combine exists it is imported; elsewhere these
// stand-ins have the same generic shape, so the protocols compile.
#if canImport(Combine)
@_exported import Combine
#else
struct AnyPublisher<Output, Failure: Error> {}
final class CurrentValueSubject<Output, Failure: Error> {}
final class PassthroughSubject<Output, Failure: Error> {}
protocol Cancellable {}
#endif
