/// A transaction program: what the differential tests generate, run on
/// every backend, compare, shrink and print.
///
/// The language (one screen):
///
///     Program   := Step*
///     Step      := write(Op*, End) | writeOrRollBack(Op*, commit: Bool)
///                | read(Op*, End)               -- write ops in a read are refused by type
///                | observe(id, tables, collections) | stopObserving(id)
///                | useEscaped(Use)              -- a transaction kept after its block: misuse
///     End       := returns(Int) | throws(Int)   -- the block's value, or TestError(id)
///     SavepointEnd := commit | rollback | throws(Int)
///     Op        := set(Collection, Key, Typed) | get(Collection, Key, Getter)
///                | remove(Collection, Key) | removeAll(Collection) | keys(Collection) | count(Collection)
///                | insertRow(Table)            -- a finder: SQL on SQLite, declareChange on MockDB
///                | finalization(key, Op*, throws: Bool)
///                | syncCompletion(label, write: Op*?)  -- a completion may open its own write
///                | asyncCompletion(label)      -- on a serial queue; the order is compared
///                | block(Op*, End, caught: Bool)  -- a nested block that returns or throws,
///                                                  caught inside the transaction or not
///                | savepoint(Op*, SavepointEnd, caught: Bool)
///                                              -- tx.inSavepoint: a write's nested scope that
///                                                 commits, rolls back, or throws (its error
///                                                 caught inside the transaction or not)
///                | nested(Kind)                -- read/write inside a transaction: misuse
///                | escape | useEscaped(Use)    -- keep the transaction, use it later: misuse
struct Program: Hashable, Sendable {
    var steps: [Step]
}

/// A top-level statement of a program.
enum Step: Hashable, Sendable {
    case write([Op], End)
    case writeOrRollBack([Op], commit: Bool)
    case read([Op], End)
    case observe(Int, tables: [String], collections: [String])
    case stopObserving(Int)
    case useEscaped(EscapedUse)
}

/// How a block ends.
enum End: Hashable, Sendable {
    case returns(Int)
    case `throws`(Int)
}

/// A statement inside a transaction's block.
indirect enum Op: Hashable, Sendable {
    case set(String, String, Typed)
    case get(String, String, Getter)
    case remove(String, String)
    case removeAll(String)
    case keys(String)
    case count(String)
    case insertRow(String)
    case finalization(String, [Op], throws: Bool)
    case syncCompletion(Int, write: [Op]?)
    case asyncCompletion(Int)
    case block([Op], End, caught: Bool)
    case savepoint([Op], SavepointEnd, caught: Bool)
    case nested(NestedKind)
    case escape
    case useEscaped(EscapedUse)

    /// The ops the op runs (a nested block's, a savepoint's, a
    /// finalization's, a sync completion's write), which the shrinker may
    /// put in its place; `nil` for an op that runs none.
    var inlinableOps: [Op]? {
        switch self {
        case let .block(ops, _, _), let .savepoint(ops, _, _), let .finalization(_, ops, _): ops
        case let .syncCompletion(_, write?): write
        default: nil
        }
    }

    /// Whether the op writes (refused by type in a read transaction).
    var writes: Bool {
        switch self {
        case .set, .remove, .removeAll, .insertRow, .finalization, .syncCompletion, .asyncCompletion, .savepoint: true
        case .get, .keys, .count, .nested, .escape, .useEscaped: false
        case let .block(ops, _, _): ops.contains(where: \.writes)
        }
    }
}

/// How a savepoint's block ends: what it returns, or the `TestError` it
/// throws.
enum SavepointEnd: Hashable, Sendable {
    case commit
    case rollback
    case `throws`(Int)
}

/// A transaction opened inside another one of the same database.
enum NestedKind: String, Hashable, Sendable {
    case read
    case write
}

/// What a program does with a transaction kept after its block returned.
enum EscapedUse: Hashable, Sendable {
    case set(String, String)
    case get(String, String)
    case syncCompletion
    case preconditionActive
}

/// A value written through one of `KeyValueStore`'s typed setters.
enum Typed: Hashable, Sendable {
    case value(ValueLiteral)
    case int(Int)
    case bool(Bool)
    case double(Double)
    case string(String)
    case data([UInt8])
    case date(Double)
    case codable(Int)
}

/// A `KeyValueStore.Value`, spelled so that programs stay `Hashable` and
/// printable.
enum ValueLiteral: Hashable, Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// One of `KeyValueStore`'s typed getters.
enum Getter: String, Hashable, Sendable, CaseIterable {
    case value
    case has
    case int
    case bool
    case double
    case string
    case data
    case date
    case codable
}
