// Ours: the shapes the held-out peer suites still failed on (issue 50):
// overloads by result, effects or `where` clause, a property beside a
// method of its name, an actor-constrained protocol with a `nonisolated`
// member, compositions, and a parent that is a type alias of `Any` or
// `SendableMetatype` (GRDB's `GRDBSendableMetatype`).

/// Overloads that differ only by result type, by `async`/`throws` or by
/// their `where` clause.
protocol EffectOverloads {
    func load() -> Int
    func load() -> String
    func fooFunc()
    func fooFunc() async throws
    func display() -> Int
    func display() async -> Int
    func convert<T>(_ value: T) -> T where T: Equatable
    func convert<T>(_ value: T) -> T where T: Comparable
}

/// A property beside a method of the same name.
protocol Talker {
    var talk: String { get }
    func talk() async
}

/// An actor-constrained protocol with a member reached from outside it.
protocol CountingStore: Actor {
    func save(_ name: String) async -> Bool
    var count: Int { get }
    nonisolated func identifier() -> String
}

/// Compositions of protocols that do not require `Sendable`.
protocol CompositionCache {
    func store(_ value: any Codable & Hashable) -> Int
    func made() -> (any Codable & Hashable)?
    func shared(_ value: any Codable & Sendable) -> Int
}

typealias MetatypeParent = SendableMetatype
typealias AnythingParent = Any

/// Parents that are type aliases of `SendableMetatype` and of `Any`.
protocol TableNamed: MetatypeParent {
    static var tableName: String { get }
}

protocol Runnable: AnythingParent {
    func run() -> Int
}
