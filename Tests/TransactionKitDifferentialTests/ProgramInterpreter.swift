import Foundation
import TransactionKit

/// Runs one program on one synchronous database and records its trace.
///
/// Every op records its outcome (a value or an error) and goes on: only a
/// block's `End` and a throwing finalization end a block early, so that
/// the traces stay comparable after an error. After each step the
/// interpreter waits for the notifications and async completions that
/// step caused (both go to one serial queue of its own) and records them.
final class ProgramInterpreter {
    let database: DifferentialDatabase
    private(set) var trace = Trace()
    private var escaped: DBReadTransaction?
    private var observations: [Int: DBCommitObservation] = [:]
    /// Commit notifications and async completions go to this one serial
    /// queue, so that their order is compared too: a commit's
    /// notifications are enqueued before its async completions.
    private let notifications = DispatchQueue(label: "TransactionKitDifferentialTests.deliveries")
    private var completions: DispatchQueue { notifications }
    private let delivered = EventLog()

    init(database: DifferentialDatabase) {
        self.database = database
    }

    var db: any DB { database.db }

    /// Runs `program`, then reads the committed key-value state.
    func run(_ program: Program) -> Trace {
        for (index, step) in program.steps.enumerated() {
            record("step \(index)")
            run(step)
            notifications.sync {}
            for event in delivered.drain() { record(event) }
        }
        for observation in observations.values { observation.cancel() }
        observations = [:]
        escaped = nil
        recordFinalState()
        return trace
    }

    func record(_ event: String) {
        trace.events.append(event)
    }

    func recordMisuseReport(_ message: String) {
        trace.misuseReports.append(message)
    }

    // MARK: - Steps

    private func run(_ step: Step) {
        switch step {
        case let .write(ops, end):
            record("write: " + outcome { try db.write { tx in try finish(ops, end, tx) } })
        case let .writeOrRollBack(ops, commit):
            record("writeOrRollBack: " + outcome {
                try db.writeOrRollBack { tx -> DBWriteOutcome<String> in
                    try run(ops, tx)
                    return commit ? .commit("committed") : .rollBack("rolled back")
                }
            })
        case let .read(ops, end):
            record("read: " + outcome { try db.read { tx in try finish(ops, end, tx) } })
        case let .observe(id, tables, collections):
            let delivered = delivered
            observations[id] = db.observeCommits(
                tables: Set(tables), keyValueCollections: Set(collections), queue: notifications
            ) { changes in
                delivered.append("observer \(id): \(changes)")
            }
        case let .stopObserving(id):
            record("stop observer \(id): " + (observations.removeValue(forKey: id) == nil ? "none" : "stopped"))
            // `cancel()` runs when the last reference goes, now.
        case let .useEscaped(use):
            useEscaped(use)
        }
    }

    private func finish(_ ops: [Op], _ end: End, _ tx: DBReadTransaction) throws -> Int {
        try run(ops, tx)
        switch end {
        case let .returns(value): return value
        case let .throws(id): throw TestError(id: id)
        }
    }

    // MARK: - Ops

    /// Runs `ops` in order; an uncaught block's error ends them and
    /// propagates.
    private func run(_ ops: [Op], _ tx: DBReadTransaction) throws {
        for op in ops {
            try run(op, tx)
        }
    }

    private func run(_ op: Op, _ tx: DBReadTransaction) throws {
        let write = tx as? DBWriteTransaction
        if op.writes, !op.isBlock, write == nil {
            record("\(op.swift): refused, a read transaction is not a DBWriteTransaction")
            return
        }
        switch op {
        case let .set(collection, key, typed):
            record("set \(swiftString(collection))/\(swiftString(key)) \(typed.swift): "
                + outcome { try Self.set(typed, KeyValueStore(collection: collection), key, write!) })
        case let .get(collection, key, getter):
            record("get \(swiftString(collection))/\(swiftString(key)) .\(getter.rawValue): "
                + outcome { try Self.get(getter, KeyValueStore(collection: collection), key, tx) })
        case let .remove(collection, key):
            record("remove \(swiftString(collection))/\(swiftString(key)): "
                + outcome { try KeyValueStore(collection: collection).removeValue(forKey: key, transaction: write!) })
        case let .removeAll(collection):
            record("removeAll \(swiftString(collection)): "
                + outcome { try KeyValueStore(collection: collection).removeAll(transaction: write!) })
        case let .keys(collection):
            record("keys \(swiftString(collection)): "
                + outcome { swiftArray(try KeyValueStore(collection: collection).allKeys(transaction: tx)) })
        case let .count(collection):
            record("count \(swiftString(collection)): "
                + outcome { try KeyValueStore(collection: collection).count(transaction: tx) })
        case let .insertRow(table):
            record("insert into \(table): " + outcome { try database.rows.insert(into: table, write!) })
        case let .finalization(key, ops, throwing):
            write!.addFinalization(key: key) { [self] tx in
                record("finalization \(key) runs")
                try run(ops, tx)
                if throwing { throw TestError(id: 100) }
            }
        case let .syncCompletion(label, ops):
            write!.addSyncCompletion { [self] in
                record("sync completion \(label) runs")
                if let ops {
                    record("sync completion \(label) write: " + outcome { try db.write { tx in try run(ops, tx) } })
                }
            }
        case let .asyncCompletion(label):
            let delivered = delivered
            write!.addAsyncCompletion(on: completions) { delivered.append("async completion \(label) runs") }
        case let .block(ops, end, caught):
            do {
                try run(ops, tx)
                switch end {
                case let .returns(value): record("block returned \(value)")
                case let .throws(id): throw TestError(id: id)
                }
            } catch where caught {
                record("block caught " + describe(error))
            }
        case let .savepoint(ops, end, caught):
            do {
                try write!.inSavepoint {
                    try run(ops, tx)
                    return try end.completion()
                }
                record("savepoint \(end.swift) returned")
            } catch where caught {
                record("savepoint caught " + describe(error))
            }
        case let .nested(kind):
            switch kind {
            case .read: record("nested read: " + outcome { try db.read { _ in 0 } })
            case .write: record("nested write: " + outcome { try db.write { _ in 0 } })
            }
        case .escape:
            escaped = tx
            record("escape \(tx is DBWriteTransaction ? "write" : "read") transaction")
        case let .useEscaped(use):
            useEscaped(use)
        }
    }

    private func useEscaped(_ use: EscapedUse) {
        guard let escaped else {
            record("escaped \(use.swift): nothing escaped")
            return
        }
        let write = escaped as? DBWriteTransaction
        switch use {
        case let .set(collection, key):
            guard let write else { return record("escaped \(use.swift): a read transaction") }
            record("escaped \(use.swift): "
                + outcome { try KeyValueStore(collection: collection).setInt(1, key: key, transaction: write) })
        case let .get(collection, key):
            record("escaped \(use.swift): "
                + outcome { try KeyValueStore(collection: collection).getValue(key, transaction: escaped).map(show) })
        case .syncCompletion:
            guard let write else { return record("escaped \(use.swift): a read transaction") }
            write.addSyncCompletion { [self] in record("escaped sync completion runs") }
            record("escaped \(use.swift): returned")
        case .preconditionActive:
            escaped.preconditionActive()
            record("escaped \(use.swift): returned, active: \(escaped.isActive)")
        }
    }

    // MARK: - Key-value store

    /// Sets `typed` with the store's method for its type (also the async
    /// interpreter's).
    static func set(_ typed: Typed, _ store: KeyValueStore, _ key: String, _ tx: DBWriteTransaction) throws {
        switch typed {
        case let .value(value): try store.setValue(value.value, key: key, transaction: tx)
        case let .int(value): try store.setInt(value, key: key, transaction: tx)
        case let .bool(value): try store.setBool(value, key: key, transaction: tx)
        case let .double(value): try store.setDouble(value, key: key, transaction: tx)
        case let .string(value): try store.setString(value, key: key, transaction: tx)
        case let .data(bytes): try store.setData(Data(bytes), key: key, transaction: tx)
        case let .date(seconds): try store.setDate(Date(timeIntervalSince1970: seconds), key: key, transaction: tx)
        case let .codable(number): try store.setCodable(Pair(number: number, name: "p\(number)"), key: key, transaction: tx)
        }
    }

    /// Reads with the getter's method, as the trace shows it (also the
    /// async interpreter's).
    static func get(_ getter: Getter, _ store: KeyValueStore, _ key: String, _ tx: DBReadTransaction) throws -> String {
        switch getter {
        case .value: try store.getValue(key, transaction: tx).map(show) ?? "nil"
        case .has: "\(try store.hasValue(key, transaction: tx))"
        case .int: "\(try store.getInt(key, transaction: tx).map(String.init) ?? "nil")"
        case .bool: "\(try store.getBool(key, transaction: tx).map(String.init) ?? "nil")"
        case .double: "\(try store.getDouble(key, transaction: tx).map(swiftDouble) ?? "nil")"
        case .string: "\(try store.getString(key, transaction: tx).map(swiftString) ?? "nil")"
        case .data: "\(try store.getData(key, transaction: tx).map { Array($0).description } ?? "nil")"
        case .date: "\(try store.getDate(key, transaction: tx).map { swiftDouble($0.timeIntervalSince1970) } ?? "nil")"
        case .codable: "\(try store.getCodable(key, as: Pair.self, transaction: tx).map { "\($0)" } ?? "nil")"
        }
    }

    /// Every collection's committed keys and values, read in one
    /// transaction after the program.
    private func recordFinalState() {
        for collection in ProgramGenerator.collections {
            record("final \(swiftString(collection)): " + outcome {
                try db.read { tx in
                    let store = KeyValueStore(collection: collection)
                    return try store.allKeys(transaction: tx).map { key in
                        "\(swiftString(key))=\(try store.getValue(key, transaction: tx).map(show) ?? "nil")"
                    }.joined(separator: " ")
                }
            })
        }
    }
}

extension SavepointEnd {
    /// What the savepoint's block returns, or the error it throws (also the
    /// async interpreter's).
    func completion() throws -> DBSavepointCompletion {
        switch self {
        case .commit: .commit
        case .rollback: .rollback
        case let .throws(id): throw TestError(id: id)
        }
    }
}

extension Op {
    var isBlock: Bool {
        if case .block = self { return true }
        return false
    }
}

/// A result, or the error, as one line of a trace.
func outcome<T>(_ body: () throws -> T) -> String {
    do {
        return "\(try body())"
    } catch {
        return describe(error)
    }
}

/// An error as one line of a trace: its type, kind and message.
func describe(_ error: any Error) -> String {
    switch error {
    case let error as TestError: "threw TestError(\(error.id))"
    case let error as KeyValueStoreError: "threw KeyValueStoreError.\(error.kind): \(error)"
    case let error as DBMisuseError: "threw DBMisuseError: \(error.message)"
    case let error as DBError: "threw DBError.\(error.kind)"
    default: "threw \(type(of: error)): \(error)"
    }
}

/// A value with a blob's bytes (its description shows only their count).
func show(_ value: KeyValueStore.Value) -> String {
    switch value {
    case let .integer(integer): "integer(\(integer))"
    case let .real(real): "real(\(swiftDouble(real)))"
    case let .text(text): "text(\(swiftString(text)))"
    case let .blob(data): "blob(\(Array(data)))"
    }
}

extension ValueLiteral {
    var value: KeyValueStore.Value {
        switch self {
        case let .integer(integer): .integer(integer)
        case let .real(real): .real(real)
        case let .text(text): .text(text)
        case let .blob(bytes): .blob(Data(bytes))
        }
    }
}

/// The Codable value the programs store.
struct Pair: Codable, Hashable, Sendable {
    var number: Int
    var name: String
}

struct TestError: Error, Hashable {
    let id: Int
}

/// Records events in order, from any thread. Behind a pthread mutex
/// (`LockedValue`), which the thread sanitizer sees, unlike
/// `Synchronization.Mutex` on Linux.
final class EventLog: Sendable {
    private let storage = LockedValue<[String]>([])

    func append(_ event: String) {
        storage.withLock { $0.append(event) }
    }

    /// The events so far, removed.
    func drain() -> [String] {
        storage.withLock { events in
            defer { events = [] }
            return events
        }
    }
}
