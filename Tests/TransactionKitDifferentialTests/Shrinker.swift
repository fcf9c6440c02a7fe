/// The simpler programs the shrinker tries: each removes one step or op,
/// puts the ops an op runs (a block, a savepoint, a finalization, a
/// completion's write) in its place, or simplifies one flag, so that every
/// candidate weighs less than the program it came from (and shrinking
/// ends).
enum Shrinker {
    static func candidates(_ program: Program) -> [Program] {
        var result: [Program] = []
        let steps = program.steps
        for index in steps.indices {
            var fewer = steps
            fewer.remove(at: index)
            result.append(Program(steps: fewer))
        }
        for index in steps.indices {
            for simpler in candidates(steps[index]) {
                var changed = steps
                changed[index] = simpler
                result.append(Program(steps: changed))
            }
        }
        return result
    }

    static func candidates(_ step: Step) -> [Step] {
        switch step {
        case let .write(ops, end):
            candidates(ops).map { .write($0, end) } + candidates(end).map { .write(ops, $0) }
        case let .writeOrRollBack(ops, commit):
            [.write(ops, .returns(0))]
                + candidates(ops).map { .writeOrRollBack($0, commit: commit) }
                + (commit ? [] : [.writeOrRollBack(ops, commit: true)])
        case let .read(ops, end):
            candidates(ops).map { .read($0, end) } + candidates(end).map { .read(ops, $0) }
        case let .observe(id, tables, collections):
            tables.indices.map { index in
                var fewer = tables
                fewer.remove(at: index)
                return .observe(id, tables: fewer, collections: collections)
            } + collections.indices.map { index in
                var fewer = collections
                fewer.remove(at: index)
                return .observe(id, tables: tables, collections: fewer)
            }
        case .stopObserving, .useEscaped:
            []
        }
    }

    static func candidates(_ end: End) -> [End] {
        end == .returns(0) ? [] : [.returns(0)]
    }

    static func candidates(_ ops: [Op]) -> [[Op]] {
        var result: [[Op]] = []
        for index in ops.indices {
            var fewer = ops
            fewer.remove(at: index)
            result.append(fewer)
        }
        for index in ops.indices {
            if let inner = ops[index].inlinableOps {
                var inlined = ops
                inlined.replaceSubrange(index...index, with: inner)
                result.append(inlined)
            }
            for simpler in candidates(ops[index]) {
                var changed = ops
                changed[index] = simpler
                result.append(changed)
            }
        }
        return result
    }

    static func candidates(_ op: Op) -> [Op] {
        switch op {
        case let .finalization(key, ops, throwing):
            candidates(ops).map { .finalization(key, $0, throws: throwing) }
                + (throwing ? [.finalization(key, ops, throws: false)] : [])
        case let .syncCompletion(label, write?):
            [.syncCompletion(label, write: nil)] + candidates(write).map { .syncCompletion(label, write: $0) }
        case let .block(ops, end, caught):
            candidates(ops).map { .block($0, end, caught: caught) }
                + candidates(end).map { .block(ops, $0, caught: caught) }
        case let .savepoint(ops, end, caught):
            candidates(ops).map { .savepoint($0, end, caught: caught) }
                + (end == .commit ? [] : [.savepoint(ops, .commit, caught: caught)])
        case let .set(collection, key, typed) where typed != .int(0):
            [.set(collection, key, .int(0))]
        default:
            []
        }
    }
}

extension Program {
    /// What the shrinker reduces: the size first, then the flags that are
    /// not at their simplest.
    var weight: Int {
        size * 8 + flags
    }

    var flags: Int {
        steps.reduce(0) { total, step in
            switch step {
            case let .write(ops, end), let .read(ops, end): total + ops.flags + end.flags
            case let .writeOrRollBack(ops, commit): total + ops.flags + (commit ? 1 : 2)
            case .observe, .stopObserving, .useEscaped: total
            }
        }
    }
}

extension End {
    var flags: Int { self == .returns(0) ? 0 : 1 }
}

extension [Op] {
    var flags: Int {
        reduce(0) { total, op in
            switch op {
            case let .finalization(_, ops, throwing): total + ops.flags + (throwing ? 1 : 0)
            case let .syncCompletion(_, write): total + (write?.flags ?? 0)
            case let .block(ops, end, _): total + ops.flags + end.flags
            case let .savepoint(ops, end, _): total + ops.flags + (end == .commit ? 0 : 1)
            case let .set(_, _, typed): total + (typed == .int(0) ? 0 : 1)
            default: total
            }
        }
    }
}
