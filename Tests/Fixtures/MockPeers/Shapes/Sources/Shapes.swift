// Ours: the shapes issue 39 lists, one protocol each (the peer suites'
// files are beside this folder). ShapesTests.swift uses their mocks.
import TransactionKit

struct Row: Sendable, Equatable { var id: Int }

/// Overloads by labels, by parameter type and by result type.
protocol Overloads {
    func fetch(byName name: String) -> Int
    func fetch(byID id: Int) -> Int
    func value(_ key: String) -> Int
    func value(_ key: String) -> String
    func value(_ key: Int) -> String
}

/// Keywords as labels and names; implicitly unwrapped optionals.
protocol Keywords {
    func lookup(for: String, in: String) -> String
    func `default`(_ value: Int!) -> String!
}

/// `Self`, `some`, `any`, `(some Error)?`.
protocol Existentials {
    func copy() -> Self
    func describe(_ value: some CustomStringConvertible) -> String
    func report(_ error: (some Error)?) -> Bool
    func store(_ value: any Sendable) -> Int
}

enum Outer {
    enum Inner {
        /// A nested protocol, mocked by its qualified name.
        protocol Finder {
            func find(id: Int) -> Row?
        }
    }
}

/// Associated types: one generic, one fixed by a default.
protocol Repository {
    associatedtype Item
    associatedtype Key = String
    func item(for key: Key) -> Item?
    func save(_ item: Item, for key: Key)
}

/// Static members and subscripts.
protocol Registry {
    static var shared: Int { get }
    static func register(_ name: String) -> Bool
    subscript(index: Int) -> String { get set }
    subscript(name name: String) -> Int? { get }
}

/// Actor-constrained.
protocol Counter: Actor {
    func increment(by amount: Int) -> Int
}

/// Global-actor isolated.
@MainActor
protocol Screen {
    var title: String { get set }
    func show(_ rows: [Row])
}

/// A non-Sendable class, a closure typealias, `AnyObject`, a closure
/// property.
final class Context {
    var name = "context"
    init() {}
}
typealias Completion = (Int) -> Void

protocol NonSendableValues {
    var onChange: ((String) -> Void)? { get set }
    func use(_ context: Context) -> Context
    func run(completion: @escaping Completion)
    func owner() -> AnyObject?
}

/// Transactions, optional or not: checked, never recorded.
protocol Transactions {
    func count(_ tx: DBReadTransaction) throws -> Int
    func maybeCount(_ tx: DBReadTransaction?) -> Int
    func insert(_ row: Row, _ tx: DBWriteTransaction) throws
    func enumerate(_ tx: DBReadTransaction, block: (Row) throws -> Void) rethrows
    func load(id: Int, _ tx: DBReadTransaction) async throws -> Row?
}

/// Closures reach the stub, `inout` is written back, generic results are
/// cast.
protocol Callbacks {
    func enumerate(conversationID: Int, block: (Row) -> Void)
    func normalize(_ name: inout String)
    func decode<T>(_ type: T.Type, from text: String) throws -> T
    func first<T>(of type: T.Type) -> T?
    func size() -> Int
    func rename(_ name: String)
}

/// Standard-library parents a mock implements by identity or with a stub.
protocol Session: Hashable, Identifiable, CustomStringConvertible {
    func close()
}
