#if Txkit
import Foundation

/// The grammar's services: managers in the shapes GRDB apps are written in
/// (issue 51's list and the apps of `../shared/apps`), beside the
/// finder-centric consumers. A service reaches the database through a
/// pool, a writer or reader, an `AppDatabase`-style holder, the app's own
/// storage over its transaction classes, an actor around the pool, a
/// global, a `Dependencies` container or a global environment; its methods
/// open blocks of every kind (read, write, async, `inTransaction` that
/// commits or rolls back, a holder's `asyncWrite(block:completion:)`, a
/// read whose rows the code after it maps) or receive the legacy
/// transaction; inside, they use GRDB records, the query interface,
/// associations, raw SQL, savepoints, the app's completion hook, the
/// finders they hold and their own private helpers.
extension FuzzProgram {
    /// The app's record over `t(id, name)`.
    enum RecordKind: Equatable {
        /// `struct Item: Codable, FetchableRecord, PersistableRecord`.
        case persistableStruct
        /// `struct Item: …, MutablePersistableRecord` with `didInsert`.
        case mutableStruct
        /// `final class Item: Codable, FetchableRecord, PersistableRecord`
        /// (not `Sendable`).
        case finalClass

        var isClass: Bool { self == .finalClass }
    }

    /// A type of the app that opens its transactions for others.
    enum Holder: String, Equatable, Hashable, CaseIterable {
        /// `AppDatabase`: `let dbWriter: any DatabaseWriter`, a computed
        /// `reader`, the `SQLiteDB` that adopted the pool (GRDB's demo apps).
        case appDatabase
        /// `Storage`: `read`/`write { transaction in }` over the app's
        /// transaction classes, completions after commit, and
        /// `asyncWrite(block:completion:)` (the chat store's).
        case storage
        /// `actor PoolActor`: async `read`/`write` around the pool (the ledger's).
        case poolActor

        var typeName: String {
            switch self {
            case .appDatabase: "AppDatabase"
            case .storage: "Storage"
            case .poolActor: "PoolActor"
            }
        }

        /// The property that holds one (in a service, `Dependencies`).
        var property: String {
            switch self {
            case .appDatabase: "appDatabase"
            case .storage: "storage"
            case .poolActor: "database"
            }
        }

        /// Its blocks are awaited.
        var isAsync: Bool { self == .poolActor }
    }

    /// How a service reaches the database.
    enum DatabaseSource: Equatable {
        /// `let dbPool: DatabasePool` (the program's pool or queue), injected.
        case pool
        /// `let dbWriter: any DatabaseWriter`, injected.
        case writer
        /// `let reader: any DatabaseReader`: a service that only reads.
        case reader
        /// The holder, injected; `defaulted`: `= H.shared`.
        case holder(Holder, defaulted: Bool)
        /// `H.shared` read in each method.
        case global(Holder)
        /// `dependencies.h`, through a computed property or not.
        case dependencies(Holder, computed: Bool)
        /// `guard let database = AppEnvironment.current.database else { throw … }`.
        case environment(Holder)

        var holder: Holder? {
            switch self {
            case .pool, .writer, .reader: nil
            case let .holder(holder, _), let .global(holder), let .dependencies(holder, _), let .environment(holder): holder
            }
        }

        var readOnly: Bool { self == .reader }
    }

    /// How a service method gets its transaction.
    enum Block: Equatable {
        case read, write
        /// `dbQueue.inTransaction { db in …; return .commit }` (or `.rollback`).
        case inTransaction(rollsBack: Bool)
        /// `try await source.read/write { db in … }`.
        case asyncRead, asyncWrite
        /// `let rows = try source.read { db in try Row.fetchAll(…) }`, mapped after the block.
        case handsRows
        /// The method takes the legacy transaction from its caller.
        case received(writes: Bool)
        /// `storage.asyncWrite(block: { transaction in … }, completion: { … })`.
        case holderAsyncWrite
        /// The method takes a TransactionKit transaction from its caller and
        /// bridges it to GRDB's (`let db = try SQLiteDB.shimOnlyBridge(tx)`).
        case bridged(writes: Bool)

        var writes: Bool {
            switch self {
            case .read, .asyncRead, .handsRows: false
            case .write, .inTransaction, .asyncWrite, .holderAsyncWrite: true
            case let .received(writes), let .bridged(writes): writes
            }
        }

        var isAsync: Bool { self == .asyncRead || self == .asyncWrite }
    }

    /// One piece of data access in a service method; most leave a value
    /// the method returns a description of.
    enum Step: Equatable {
        /// A held finder's member (not async, not a closure-taking one).
        case finder(Int, member: Int)
        case fetchOneKey, fetchAllNames, fetchCount, exists, queryChain, rawCount, rowsMapped, association
        /// `Item.named(_:db:)`, a static finder in the record's extension.
        case staticFinder
        /// A private helper of the service that takes the legacy transaction.
        case helper(writes: Bool)
        case insert, inserted, insertAndFetch, save, update, delete, execute
        /// `Item.fetchOrDefault(id:…)`, then the record's own `rename(to:…)`.
        case rename
        /// `db.inSavepoint { …; return .commit }` (or `.rollback`).
        case savepoint(rollsBack: Bool)
        /// `transaction.addCompletion { … }` (the app's hook; no value).
        case completion

        var writes: Bool {
            switch self {
            case .finder, .fetchOneKey, .fetchAllNames, .fetchCount, .exists, .queryChain, .rawCount, .rowsMapped,
                 .association, .staticFinder:
                false
            case let .helper(writes): writes
            case .insert, .inserted, .insertAndFetch, .save, .update, .delete, .execute, .rename, .savepoint, .completion:
                true
            }
        }

        var hasValue: Bool { self != .completion }
    }

    struct ServiceMethod: Equatable {
        var name: String
        var block: Block
        var steps: [Step]
        /// The result also names `dependencies.label` (a service on `Dependencies`).
        var readsLabel = false
    }

    struct Service: Equatable {
        var name: String
        var source: DatabaseSource
        /// `actor S` (on the pool actor): its helpers are `nonisolated`.
        var isActor = false
        /// `final class S: Sendable`: what its async blocks capture is.
        var isSendable = false
        /// The finders it holds or calls, and how.
        var accesses: [Int: Access]
        var methods: [ServiceMethod]

        /// Its helpers, by whether they write.
        var helpers: [Bool] {
            var found: [Bool] = []
            for method in methods {
                for case let .helper(writes) in method.steps where !found.contains(writes) { found.append(writes) }
            }
            return found.sorted { !$0 && $1 }
        }

        /// The `events` log its completions record into.
        var recordsEvents: Bool { methods.contains { $0.steps.contains(.completion) } }

        /// Whether a method takes a TransactionKit transaction and bridges it.
        var bridges: Bool {
            methods.contains { if case .bridged = $0.block { true } else { false } }
        }

        /// Whether a non-private member of the service takes the legacy transaction.
        var receivesLegacyTransaction: Bool {
            methods.contains { if case .received = $0.block { true } else { false } }
        }

        /// Whether it calls the record's own members that take the
        /// transaction (a pair `txkit shim` takes).
        var usesRecordMembers: Bool {
            methods.contains { $0.steps.contains(.staticFinder) || $0.steps.contains(.rename) }
        }

        /// Whether it also calls GRDB's own members on the record (a fetch,
        /// the query interface, persistence): `txkit shim` of the pair
        /// (service, record) refuses those; `txkit migrate` takes them.
        var usesGRDBOnRecord: Bool {
            usesRecord && methods.contains { method in
                method.steps.contains { step in
                    switch step {
                    case .fetchOneKey, .fetchAllNames, .fetchCount, .exists, .queryChain, .helper(writes: false),
                         .insert, .inserted, .insertAndFetch, .save, .update, .delete:
                        true
                    default:
                        false
                    }
                }
            }
        }

        /// Whether its code names the record with the legacy transaction:
        /// the record's own members or GRDB's fetches and persistence on it
        /// (an association names `Tag`, raw SQL and the writing helper no record).
        var usesRecord: Bool {
            methods.contains { method in
                method.steps.contains { step in
                    switch step {
                    case .fetchOneKey, .fetchAllNames, .fetchCount, .exists, .queryChain, .staticFinder, .helper(writes: false),
                         .insert, .inserted, .insertAndFetch, .save, .update, .delete, .rename:
                        true
                    case .finder, .rawCount, .rowsMapped, .association, .helper(writes: true), .execute, .savepoint, .completion:
                        false
                    }
                }
            }
        }
    }

    /// The holders the services use.
    var holders: [Holder] {
        Holder.allCases.filter { holder in services.contains { $0.source.holder == holder } }
    }

    var usesDependencies: Bool {
        services.contains { if case .dependencies = $0.source { true } else { false } }
    }

    /// The holder `AppEnvironment.current.database` is, if a service reads it.
    var environmentHolder: Holder? {
        services.lazy.compactMap { if case let .environment(holder) = $0.source { holder } else { nil } }.first
    }
}

// MARK: Generating

extension FuzzProgram {
    static let serviceNames = ["NoteService", "LedgerService", "InboxLoader", "ArchiveJob", "SearchIndexer"]

    /// Adds random services to the program (after its finders and consumers,
    /// so that their shapes do not depend on this).
    mutating func addServices(_ random: inout FuzzRandom) {
        guard random.chance(Self.servicePercent) else { return }
        record = random.pick([.persistableStruct, .mutableStruct, .finalClass])
        var environment: Holder?
        for index in 0..<(1 + random.below(3)) {
            var holders: [Holder] = [.appDatabase]
            holders.append(legacyTransaction == .appTransactions ? .storage : .poolActor)
            let holder = random.pick(holders)
            var sources: [DatabaseSource] = [
                .pool, .writer, .reader, .holder(holder, defaulted: random.chance(50)), .dependencies(holder, computed: random.chance(50)),
            ]
            if holder != .poolActor { sources.append(.global(holder)) }
            if environment == nil || environment == holder { sources.append(.environment(holder)) }
            let source = random.pick(sources)
            if case let .environment(holder) = source { environment = holder }
            let asyncSource = source.holder?.isAsync == true
            // GRDB's async blocks where the source is a GRDB handle or the demo app's holder.
            let mayAwait = source.holder == nil || source.holder == .appDatabase
            let isActor = asyncSource && random.chance(50)
            var service = Service(
                name: Self.serviceNames[index], source: source, isActor: isActor, accesses: [:], methods: [])
            // Finders it holds: synchronous members only, Sendable finders in async code.
            for finder in finders.indices where random.chance(35) {
                let kind = finders[finder].kind
                var choices: [Access] = []
                if kind.hasInstances {
                    choices += [.injected(defaulted: true), .injected(defaulted: false), .inline(isPrivate: random.chance(50), typed: true)]
                    if finders[finder].singleton == .property { choices.append(.singleton) }
                } else {
                    choices.append(.statics)
                }
                service.accesses[finder] = random.pick(choices)
            }
            var blocks: [Block] = []
            if asyncSource {
                blocks = [.asyncRead, .asyncWrite]
            } else {
                blocks = [.read, .write, .handsRows, .read, .write, .received(writes: false), .received(writes: true)]
                if mayAwait { blocks += [.asyncRead, .asyncWrite] }
                if source == .pool && usesQueue { blocks += [.inTransaction(rollsBack: false), .inTransaction(rollsBack: true)] }
                if source.holder == .storage { blocks.append(.holderAsyncWrite) }
                if legacyTransaction == .database { blocks += [.bridged(writes: false), .bridged(writes: true)] }
            }
            if source.readOnly { blocks = blocks.filter { !$0.writes || $0 == .received(writes: true) || $0 == .bridged(writes: true) } }
            let chosen = (0..<(1 + random.below(3))).map { _ in random.pick(blocks) }
            // Async blocks run `@Sendable` closures, which capture the service
            // and what it holds: it is Sendable (or an actor), and so are they.
            if chosen.contains(where: \.isAsync) || asyncSource {
                service.accesses = service.accesses.filter { finders[$0.key].kind.isSendable }
                service.isSendable = !isActor
            } else {
                service.isSendable = service.accesses.keys.allSatisfy { finders[$0].kind.isSendable } && random.chance(40)
            }
            for block in chosen {
                var method = ServiceMethod(name: "m\(service.methods.count)", block: block, steps: [])
                if block != .handsRows {
                    method.steps = randomSteps(block: block, service: service, random: &random)
                }
                if case .dependencies = source, random.chance(40) { method.readsLabel = true }
                service.methods.append(method)
            }
            // Finders nobody calls are not held.
            for finder in service.accesses.keys where !service.methods.contains(where: { $0.steps.contains { step in
                if case let .finder(called, _) = step { called == finder } else { false }
            } }) {
                service.accesses[finder] = nil
            }
            // The events log a completion records into is not Sendable.
            if service.recordsEvents { service.isSendable = false }
            services.append(service)
        }
    }

    /// Percent of programs with services (`TXKIT_FUZZ_SERVICES`, default 80).
    static var servicePercent: Int {
        Int(ProcessInfo.processInfo.environment["TXKIT_FUZZ_SERVICES"] ?? "") ?? 80
    }

    private func randomSteps(block: Block, service: Service, random: inout FuzzRandom) -> [Step] {
        var reads: [Step] = [.fetchOneKey, .fetchAllNames, .fetchCount, .exists, .queryChain, .rawCount, .rowsMapped, .association, .staticFinder]
        var writes: [Step] = [.insert, .inserted, .insertAndFetch, .save, .update, .delete, .execute, .rename]
        // Async blocks run `@Sendable` closures: no helper of a non-Sendable
        // service, no class record crossing them, no finder that is not Sendable.
        let sendableOnly = block.isAsync
        reads.append(.helper(writes: false))
        writes.append(.helper(writes: true))
        if legacyTransaction == .database, block != .holderAsyncWrite {
            writes += [.savepoint(rollsBack: false), .savepoint(rollsBack: true)]
        }
        if service.source.holder == .storage && (block == .write || block == .holderAsyncWrite) {
            writes.append(.completion)
        }
        for (finder, _) in service.accesses.sorted(by: { $0.key < $1.key }) {
            if sendableOnly && !finders[finder].kind.isSendable { continue }
            for (index, member) in finders[finder].members.enumerated()
            where !member.isAsync && member.operation != .forEachName && (block.writes || !member.operation.writes) {
                if member.operation.writes { writes.append(.finder(finder, member: index)) } else { reads.append(.finder(finder, member: index)) }
            }
        }
        var steps: [Step] = []
        for _ in 0..<(1 + random.below(3)) {
            steps.append(block.writes && random.chance(55) ? random.pick(writes) : random.pick(reads))
        }
        return steps
    }
}
#endif
