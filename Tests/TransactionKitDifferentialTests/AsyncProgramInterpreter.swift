import Foundation
import TransactionKit
import TransactionKitTestSupport

/// Runs one program of the async subset on an `AsyncDB`, with `await`
/// blocks, and records its trace like ``ProgramInterpreter``.
///
/// Values of every type go through each database's `KeyValueStore` (with
/// ``ProgramInterpreter``'s typed setters and getters); removals, keys and
/// counts through an ``AsyncIntStore`` (the same store). A misuse message
/// names the call that found it, so traces compare it without that name.
///
/// `@unchecked Sendable`: the blocks are `@Sendable`, but one program runs
/// on one task at a time, one step after the other.
final class AsyncProgramInterpreter: @unchecked Sendable {
    let db: any AsyncDB
    let store: any AsyncIntStore
    private(set) var trace = Trace()
    private var escaped: DBReadTransaction?
    private let completions = DispatchQueue(label: "TransactionKitDifferentialTests.asyncCompletions")
    private let delivered = EventLog()

    init(db: any AsyncDB, store: any AsyncIntStore) {
        self.db = db
        self.store = store
    }

    func run(_ program: Program) async -> Trace {
        for (index, step) in program.steps.enumerated() {
            record("step \(index)")
            await run(step)
            completions.sync {}
            for event in delivered.drain() { record(event) }
        }
        escaped = nil
        for collection in ProgramGenerator.collections {
            record("final \(swiftString(collection)): " + (await asyncOutcome {
                try await self.db.read { tx in try await self.finalState(collection, tx) }
            }))
        }
        return trace
    }

    func record(_ event: String) {
        trace.events.append(Self.withoutUseName(event))
    }

    /// "DBWriteTransaction used (KeyValueStore.setInt) after…" becomes
    /// "DBWriteTransaction used (…) after…".
    static func withoutUseName(_ text: String) -> String {
        guard let range = text.range(of: " used (") , let close = text[range.upperBound...].firstIndex(of: ")") else {
            return text
        }
        return text.replacingCharacters(in: range.upperBound..<close, with: "…")
    }

    private func finalState(_ collection: String, _ tx: DBReadTransaction) async throws -> String {
        var entries: [String] = []
        for key in try await store.allKeys(in: collection, transaction: tx) {
            entries.append("\(swiftString(key))=\(try KeyValueStore(collection: collection).getValue(key, transaction: tx).map(show) ?? "nil")")
        }
        return entries.joined(separator: " ")
    }

    // MARK: - Steps

    private func run(_ step: Step) async {
        switch step {
        case let .write(ops, end):
            record("write: " + (await asyncOutcome { try await self.db.write { tx in try await self.finish(ops, end, tx) } }))
        case let .writeOrRollBack(ops, commit):
            record("writeOrRollBack: " + (await asyncOutcome {
                try await self.db.writeOrRollBack { tx -> DBWriteOutcome<String> in
                    try await self.run(ops, tx)
                    return commit ? .commit("committed") : .rollBack("rolled back")
                }
            }))
        case let .read(ops, end):
            record("read: " + (await asyncOutcome { try await self.db.read { tx in try await self.finish(ops, end, tx) } }))
        case .observe, .stopObserving:
            record("\(step.swift): not in the async subset")
        case let .useEscaped(use):
            await useEscaped(use)
        }
    }

    private func finish(_ ops: [Op], _ end: End, _ tx: DBReadTransaction) async throws -> Int {
        try await run(ops, tx)
        switch end {
        case let .returns(value): return value
        case let .throws(id): throw TestError(id: id)
        }
    }

    // MARK: - Ops

    private func run(_ ops: [Op], _ tx: DBReadTransaction) async throws {
        for op in ops {
            try await run(op, tx)
        }
    }

    private func run(_ op: Op, _ tx: DBReadTransaction) async throws {
        let write = tx as? DBWriteTransaction
        if op.writes, !op.isBlock, write == nil {
            record("\(op.swift): refused, a read transaction is not a DBWriteTransaction")
            return
        }
        switch op {
        case let .set(collection, key, typed):
            record("set \(swiftString(collection))/\(swiftString(key)) \(typed.swift): "
                + (await asyncOutcome { try ProgramInterpreter.set(typed, KeyValueStore(collection: collection), key, write!) }))
        case let .get(collection, key, getter):
            record("get \(swiftString(collection))/\(swiftString(key)) \(getter): "
                + (await asyncOutcome { try ProgramInterpreter.get(getter, KeyValueStore(collection: collection), key, tx) }))
        case let .remove(collection, key):
            record("remove \(swiftString(collection))/\(swiftString(key)): "
                + (await asyncOutcome { try await self.store.removeValue(forKey: key, in: collection, transaction: write!) }))
        case let .removeAll(collection):
            record("removeAll \(swiftString(collection)): "
                + (await asyncOutcome { try await self.store.removeAll(in: collection, transaction: write!) }))
        case let .keys(collection):
            record("keys \(swiftString(collection)): "
                + (await asyncOutcome { swiftArray(try await self.store.allKeys(in: collection, transaction: tx)) }))
        case let .count(collection):
            record("count \(swiftString(collection)): " + (await asyncOutcome { try await self.store.count(in: collection, transaction: tx) }))
        case let .finalization(key, ops, throwing):
            // A finalization is synchronous: it records, registers what it
            // may register, and throws; no store call (it would await).
            let plain = ops.filter { !$0.isPlain && !$0.isBlock }
            write!.addFinalization(key: key) { [self] tx in
                record("finalization \(key) runs")
                for op in plain {
                    registerFromFinalization(op, tx)
                }
                if throwing { throw TestError(id: 100) }
            }
        case let .syncCompletion(label, _):
            write!.addSyncCompletion { [self] in record("sync completion \(label) runs") }
        case let .asyncCompletion(label):
            let delivered = delivered
            write!.addAsyncCompletion(on: completions) { delivered.append("async completion \(label) runs") }
        case let .block(ops, end, caught):
            do {
                try await run(ops, tx)
                switch end {
                case let .returns(value): record("block returned \(value)")
                case let .throws(id): throw TestError(id: id)
                }
            } catch where caught {
                record("block caught " + describe(error))
            }
        case let .savepoint(ops, end, caught):
            do {
                try await write!.inSavepoint {
                    try await run(ops, tx)
                    return try end.completion()
                }
                record("savepoint \(end.swift) returned")
            } catch where caught {
                record("savepoint caught " + describe(error))
            }
        case let .nested(kind):
            switch kind {
            case .read: record("nested read: " + (await asyncOutcome { try await self.db.read { _ in 0 } }))
            case .write: record("nested write: " + (await asyncOutcome { try await self.db.write { _ in 0 } }))
            }
        case .escape:
            escaped = tx
            record("escape \(tx is DBWriteTransaction ? "write" : "read") transaction")
        case let .useEscaped(use):
            await useEscaped(use)
        case .insertRow:
            record("\(op.swift): not in the async subset")
        }
    }

    /// What a finalization does with an op: hooks only.
    private func registerFromFinalization(_ op: Op, _ tx: DBWriteTransaction) {
        switch op {
        case let .finalization(key, _, _):
            tx.addFinalization(key: key) { _ in }
            record("finalization added \(key)")
        case let .syncCompletion(label, _):
            tx.addSyncCompletion { [self] in record("sync completion \(label) runs") }
        case let .asyncCompletion(label):
            let delivered = delivered
            tx.addAsyncCompletion(on: completions) { delivered.append("async completion \(label) runs") }
        default:
            record("\(op.swift): skipped in a finalization")
        }
    }

    private func useEscaped(_ use: EscapedUse) async {
        guard let escaped else {
            record("escaped \(use.swift): nothing escaped")
            return
        }
        let write = escaped as? DBWriteTransaction
        switch use {
        case let .set(collection, key):
            guard let write else { return record("escaped \(use.swift): a read transaction") }
            record("escaped \(use.swift): " + (await asyncOutcome { try await self.store.setInt(1, key: key, in: collection, transaction: write) }))
        case let .get(collection, key):
            record("escaped \(use.swift): "
                + (await asyncOutcome { try await self.store.getInt(key, in: collection, transaction: escaped).map(String.init) ?? "nil" }))
        case .syncCompletion:
            guard let write else { return record("escaped \(use.swift): a read transaction") }
            write.addSyncCompletion { [self] in record("escaped sync completion runs") }
            record("escaped \(use.swift): returned")
        case .preconditionActive:
            escaped.preconditionActive()
            record("escaped \(use.swift): returned, active: \(escaped.isActive)")
        }
    }
}

/// A result, or the error, as one line of a trace.
func asyncOutcome<T>(_ body: () async throws -> T) async -> String {
    do {
        return "\(try await body())"
    } catch {
        return describe(error)
    }
}
