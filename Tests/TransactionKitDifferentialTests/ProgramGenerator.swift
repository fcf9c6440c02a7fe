import TransactionKitTestSupport

/// Makes random programs from a seed: a few steps, blocks of a few ops,
/// nested at most twice, over a small set of collections, keys and values
/// chosen so that programs collide on them (and on their edge cases).
struct ProgramGenerator {
    /// Collections: two names that differ only by case are two collections.
    static let collections = ["kv", "prefs", "Kv"]
    /// Keys: the empty key, case, and "é" precomposed and decomposed
    /// (equal as Swift strings, different bytes, different keys).
    static let keys = ["a", "b", "B", "", "\u{e9}", "e\u{301}"]
    /// The finder's tables; observers may spell them in another case.
    static let tables = ["message", "audit"]
    static let observedTableSpellings = ["message", "audit", "MESSAGE", "Audit"]

    static let integers: [Int64] = [0, 1, -7, 42, .max, .min]
    static let reals: [Double] = [0, -0.0, 1, 2.5, -1e300, .infinity, .leastNonzeroMagnitude, 0.1]
    static let texts = ["", "x", "\u{e9}", "e\u{301}", "1", "true"]
    static let blobs: [[UInt8]] = [[], [0], [1, 2, 255]]

    var random: SplitMix64
    /// Programs for `AsyncDB` (MockDB against PostgresDB): values of every
    /// type in the key-value store, no commit observers
    /// (`DB` API, not `AsyncDB`), no finder rows, no write in a sync
    /// completion (it could not await).
    let isAsyncSubset: Bool
    private var nextLabel = 0
    private var nextObserver = 0

    init(seed: UInt64, asyncSubset: Bool = false) {
        random = SplitMix64(seed: seed)
        isAsyncSubset = asyncSubset
    }

    /// A program of one to `maximumSteps` steps.
    mutating func program(maximumSteps: Int = 8) -> Program {
        let count = 1 + random.below(maximumSteps)
        return Program(steps: (0..<count).map { _ in step() })
    }

    mutating func step() -> Step {
        switch random.below(isAsyncSubset ? 75 : 100) {
        case 0..<45: return .write(ops(depth: 0, inRead: false), end())
        case 45..<57: return .writeOrRollBack(ops(depth: 0, inRead: false), commit: random.chance(50))
        case 57..<75: return .read(ops(depth: 0, inRead: true), end())
        case 75..<88:
            nextObserver += 1
            let tables = Self.observedTableSpellings.filter { _ in random.chance(40) }
            let collections = Self.collections.filter { _ in random.chance(40) }
            return .observe(nextObserver, tables: tables, collections: collections)
        case 88..<94:
            return .stopObserving(nextObserver == 0 ? 1 : 1 + random.below(nextObserver))
        default:
            return .useEscaped(escapedUse())
        }
    }

    mutating func end() -> End {
        random.chance(25) ? .throws(random.below(10)) : .returns(random.below(100))
    }

    mutating func savepointEnd() -> SavepointEnd {
        switch random.below(100) {
        case 0..<45: .commit
        case 45..<80: .rollback
        default: .throws(random.below(10))
        }
    }

    mutating func ops(depth: Int, inRead: Bool, maximum: Int = 6) -> [Op] {
        (0..<random.below(maximum + 1)).map { _ in op(depth: depth, inRead: inRead) }
    }

    mutating func op(depth: Int, inRead: Bool) -> Op {
        // A read mostly reads; now and then it tries a write, which the
        // interpreter finds refused by type (a read transaction is not a
        // write transaction).
        if inRead, random.chance(85) {
            return readOp(depth: depth)
        }
        switch random.below(100) {
        case 0..<23: return .set(collection(), key(), typed())
        case 23..<36: return .get(collection(), key(), getter())
        case 36..<43: return .remove(collection(), key())
        case 43..<46: return .removeAll(collection())
        case 46..<50: return random.chance(50) ? .keys(collection()) : .count(collection())
        case 50..<57:
            guard !isAsyncSubset else { return .set(collection(), key(), typed()) }
            return .insertRow(random.pick(Self.tables))
        case 57..<63:
            // A finalization inside a finalization is a misuse.
            let body = depth < 2 ? ops(depth: depth + 1, inRead: false, maximum: 3) : []
            return .finalization(random.pick(["f1", "f2", "f3"]), body, throws: random.chance(15))
        case 63..<69:
            let write = !isAsyncSubset && depth < 2 && random.chance(30)
                ? ops(depth: 2, inRead: false, maximum: 3).filter(\.isPlain) : nil
            return .syncCompletion(label(), write: write)
        case 69..<74: return .asyncCompletion(label())
        case 74..<81:
            guard depth < 2 else { return .get(collection(), key(), .value) }
            return .block(ops(depth: depth + 1, inRead: inRead, maximum: 4), end(), caught: random.chance(60))
        case 81..<90:
            guard depth < 2 else { return .set(collection(), key(), typed()) }
            return .savepoint(ops(depth: depth + 1, inRead: inRead, maximum: 4), savepointEnd(), caught: random.chance(60))
        case 90..<94: return .nested(random.chance(50) ? .read : .write)
        case 94..<97: return .escape
        default: return .useEscaped(escapedUse())
        }
    }

    mutating func readOp(depth: Int) -> Op {
        switch random.below(100) {
        case 0..<55: return .get(collection(), key(), getter())
        case 55..<70: return random.chance(50) ? .keys(collection()) : .count(collection())
        case 70..<82:
            guard depth < 2 else { return .count(collection()) }
            return .block(ops(depth: depth + 1, inRead: true, maximum: 3), end(), caught: random.chance(60))
        case 82..<90: return .nested(random.chance(50) ? .read : .write)
        case 90..<95: return .escape
        default: return .useEscaped(escapedUse())
        }
    }

    mutating func escapedUse() -> EscapedUse {
        switch random.below(4) {
        case 0: .set(collection(), key())
        case 1: .get(collection(), key())
        case 2: .syncCompletion
        default: .preconditionActive
        }
    }

    mutating func collection() -> String { random.pick(Self.collections) }
    mutating func key() -> String { random.pick(Self.keys) }

    mutating func label() -> Int {
        nextLabel += 1
        return nextLabel
    }

    mutating func getter() -> Getter {
        random.pick(Getter.allCases)
    }

    mutating func typed() -> Typed {
        return switch random.below(8) {
        case 0: .value(valueLiteral())
        case 1: .int(Int(random.pick(Self.integers)))
        case 2: .bool(random.chance(50))
        case 3: .double(random.pick(Self.reals))
        case 4: .string(random.pick(Self.texts))
        case 5: .data(random.pick(Self.blobs))
        case 6: .date(random.pick([0, 1.5, -86_400, 1e9]))
        default: .codable(random.below(3))
        }
    }

    mutating func valueLiteral() -> ValueLiteral {
        switch random.below(4) {
        case 0: .integer(random.pick(Self.integers))
        case 1: .real(random.pick(Self.reals))
        case 2: .text(random.pick(Self.texts))
        default: .blob(random.pick(Self.blobs))
        }
    }
}

extension Op {
    /// A key-value or finder op without hooks, blocks or misuses: what a
    /// sync completion's own write runs.
    var isPlain: Bool {
        switch self {
        case .set, .get, .remove, .removeAll, .keys, .count, .insertRow: true
        default: false
        }
    }
}
