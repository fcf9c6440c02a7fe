#if Txkit
import Foundation

/// A small seedable pseudo-random generator (SplitMix64): the same seed
/// writes the same programs on every machine, so a failing run is replayed
/// from the seed it prints.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed of program `index` of a run seeded with `seed`: a program
    /// is replayed on its own, without generating those before it.
    static func programSeed(_ seed: UInt64, index: Int) -> UInt64 {
        var generator = FuzzRandom(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}

/// A random legacy app, as the fuzzer writes it: legacy finders that take
/// a legacy transaction, and consumers (managers) that use them. It knows
/// its ground truth: which consumer uses which finder.
struct FuzzProgram: Equatable, CustomStringConvertible {
    /// The legacy transaction the finders take.
    enum LegacyTransaction: Equatable {
        /// GRDB's `Database`.
        case database
        /// The app's `AppReadTransaction` and `AppWriteTransaction`
        /// (a subclass of the read one), each wrapping a `Database`.
        case appTransactions
    }

    /// The shape of a finder type.
    enum FinderKind: Equatable {
        case finalClass(sendable: Bool)
        case openClass
        case structType
        /// `enum F { static func … }`: static members only.
        case enumOfStatics
        /// `actor F`: its members that take the legacy transaction are
        /// `nonisolated`, as real code declares them: an isolated member
        /// would need the caller to send it a `Database` (not `Sendable`),
        /// which Swift 6 refuses, and GRDB refuses the connection on the
        /// actor's executor.
        case actor

        var hasInstances: Bool { self != .enumOfStatics }
        var isSendable: Bool {
            switch self {
            case let .finalClass(sendable): sendable
            case .openClass: false
            case .structType, .enumOfStatics, .actor: true
            }
        }
        /// A class that may have a superclass: an open one, or a final one
        /// that is not `Sendable` (a `Sendable` class's superclass must be
        /// `Sendable`, which an open class cannot be).
        var mayInherit: Bool { self == .openClass || self == .finalClass(sendable: false) }
    }

    /// Where a finder member is declared.
    enum Placement: Equatable {
        /// In the finder (or its extension, see ``Finder/splitsIntoExtension``).
        case body
        /// In the finder's open superclass, `<Finder>Base`.
        case superclass
        /// In an extension of the app's protocol `<Finder>Queries`, which
        /// the finder conforms to.
        case protocolExtension
    }

    /// Where a finder's superclass is declared.
    enum SuperclassFile: Equatable {
        /// Above the finder, in its file.
        case sameFile
        /// In `<Finder>Base.swift`.
        case ownFile
    }

    /// What a finder member does with the table `t(id, name)`.
    enum Operation: Equatable {
        /// `name(id:)`: the name of a row, or nil.
        case name
        /// `count()`: the number of rows.
        case count
        /// `count(prefix:)`: rows whose name starts with a prefix (an
        /// overload of `count` by arity).
        case countPrefix
        /// `insert(name:)`: inserts a row and returns its id.
        case insert
        /// `name(forID:)`: ``name`` overloaded by label.
        case nameForID
        /// `forEachName(db:_:)`: calls a closure with each name, in order
        /// (called with a trailing closure).
        case forEachName
        /// `value(id:as:db:)`: a generic member, `T: DatabaseValueConvertible`.
        case value

        var writes: Bool { self == .insert }
    }

    struct Member: Equatable {
        var operation: Operation
        /// The legacy transaction parameter's label (`db`, `in`, `_`).
        var transactionLabel: String
        var isStatic: Bool
        /// `throws`, or a member that swallows its errors (`try?`).
        var throwing = true
        /// `async` (Sendable finders only; called from async consumers).
        var isAsync = false
        var placement = Placement.body
        /// The legacy transaction parameter is optional (`db: Database?`);
        /// callers pass one, the member returns a fallback without it.
        var optionalTransaction = false
    }

    /// How a finder offers a shared instance.
    enum Singleton: Equatable {
        case none
        /// `static let shared = F()` (Sendable finders only).
        case property
        /// `static func shared() -> F`, a new instance per call.
        case function
    }

    struct Finder: Equatable {
        var name: String
        var kind: FinderKind
        var singleton: Singleton
        var members: [Member]
        /// `let label = "F"` (static in an enum of statics): a property
        /// that takes no transaction.
        var hasLabel = false
        /// An actor's label is isolated (`var label: String { "F" }`): only
        /// async consumers read it, with `await`.
        var isolatedLabel = false
        /// The members after the first are in an extension, in another file.
        var splitsIntoExtension = false
        /// The members spell the legacy transaction through a typealias
        /// declared in the finder (`typealias ReadConnection = Database`).
        var usesTypealias = false
        /// The members spell it through the app's top-level typealias
        /// (`typealias DBConn = Database`), when the finder has none.
        var usesTopLevelAlias = false
        /// `<Finder>Base`, an open class the finder inherits from, where
        /// the members placed ``Placement/superclass`` are.
        var superclass: SuperclassFile?
        /// The finder conforms to the app's protocol `<Finder>Queries`,
        /// whose extension has the members placed ``Placement/protocolExtension``.
        var conformsToQueries = false

        var superclassName: String { name + "Base" }
        var queriesName: String { name + "Queries" }
        /// Whether its superclass declares members (a legacy type then).
        var superclassHasMembers: Bool { superclass != nil && members.contains { $0.placement == .superclass } }
    }

    /// How a consumer gets its transaction.
    enum ConsumerShape: Equatable {
        /// Holds `let db: any DB` (the adopted SQLiteDB) and bridges each
        /// transaction with the configured bridge.
        case bridged(local: Bool)
        /// Holds the app's `DatabasePool` and opens `read`/`write { db in … }`;
        /// `holdsAdopted`: also holds `sqlite`, the `SQLiteDB` that adopted
        /// the pool at startup (the step `--apply` asks for).
        case pool(holdsAdopted: Bool)
        /// Its methods receive the legacy transaction from their callers;
        /// `holdsAdopted`: it also holds `sqlite`, the adopted database.
        case received(holdsAdopted: Bool)

        var receives: Bool { if case .received = self { true } else { false } }
        var holdsAdopted: Bool {
            switch self {
            case let .pool(holds), let .received(holds): holds
            case .bridged: false
            }
        }
    }

    /// How a consumer reaches a finder.
    enum Access: Equatable {
        /// `let f: F` set by the initializer; `defaulted`: `f: F = F()`.
        case injected(defaulted: Bool)
        /// `let f = F()` (or `private let f: F = F()`).
        case inline(isPrivate: Bool, typed: Bool)
        /// `F.member(…)` on the type (static members).
        case statics
        /// `F.shared.member(…)`.
        case singleton
        /// `F.shared().member(…)`.
        case sharedFunction
        /// `let f = F()` in the method.
        case local
        /// The method takes `f: F`.
        case parameter
        /// `var f: F?` set by the initializer; `f?.member(…)`.
        case optional
        /// `weak var f: F?` set by the initializer (class finders; the
        /// wiring keeps the instance alive); `f?.member(…)`.
        case weak
        /// `Services.shared.f.member(…)`: a chain through another type.
        case chain
        /// `F().member(…)`: a temporary.
        case temporary
    }

    /// One consumer method: one call of a finder member.
    struct Method: Equatable {
        var name: String
        var finder: Int
        var member: Int
        /// It also reads the finder's `label` property.
        var readsLabel = false
        /// `throws` (always, except a method that receives the legacy
        /// transaction and calls a member that does not throw).
        var throwing = true
    }

    struct Consumer: Equatable {
        var name: String
        var shape: ConsumerShape
        var isSendable: Bool
        /// The access per finder it uses (finder index → access).
        var accesses: [Int: Access]
        var methods: [Method]
        /// Its methods are `async` and may `await` async finder members: a
        /// bridged consumer holds `any AsyncDB` and awaits in its async
        /// blocks; one that receives the legacy transaction is called from
        /// an `SQLiteDB` async block that bridges it. It is `Sendable`, as
        /// those `@Sendable` blocks capture it.
        var isAsync = false
    }

    var module: String
    var seed: UInt64
    var legacyTransaction: LegacyTransaction
    /// `DatabasePool` or `DatabaseQueue`, for the pool consumers.
    var usesQueue: Bool
    var finders: [Finder]
    var consumers: [Consumer]
    /// The app's record type, when it has services.
    var record: RecordKind? = nil
    /// Managers in the shapes GRDB apps are written in (see ``Service``).
    var services: [Service] = []

    /// The ground truth: each consumer and the finders it uses, in order,
    /// then each service and the finders and record it uses.
    var pairs: [(consumer: String, legacy: String)] {
        consumers.flatMap { consumer in
            consumer.accesses.keys.sorted().map { (consumer.name, finders[$0].name) }
        } + services.flatMap { service in
            service.accesses.keys.sorted().map { (service.name, finders[$0].name) }
                + (service.usesRecordMembers && !service.usesGRDBOnRecord ? [(service.name, "Item")] : [])
        }
    }

    /// Every type `txkit migrate` takes: the consumers, then the services.
    var migratableTypes: [String] { consumers.map(\.name) + services.map(\.name) }

    var description: String { "\(module) (seed \(seed))" }

    /// Whether some consumer is async (the runner then awaits it).
    var hasAsyncConsumer: Bool { consumers.contains(where: \.isAsync) }

    /// The newer shapes of the grammar each consumer method calls, once
    /// per method and shape (a run reports how often it met each).
    var calledShapes: [String] {
        consumers.flatMap { consumer in
            consumer.methods.flatMap { method -> [String] in
                let finder = finders[method.finder], member = finder.members[method.member]
                var shapes: [String] = []
                if member.isAsync { shapes.append("async member") }
                if finder.kind == .actor { shapes.append("actor") }
                if method.readsLabel && finder.isolatedLabel { shapes.append("awaited actor-isolated property") }
                if member.placement == .superclass {
                    shapes.append("superclass member")
                    if finder.superclass == .ownFile { shapes.append("superclass in its own file") }
                }
                if member.placement == .protocolExtension { shapes.append("protocol extension member") }
                if member.optionalTransaction { shapes.append("optional transaction") }
                return shapes
            }
        }
    }
}

// MARK: Generating

extension FuzzProgram {
    /// A random program from the grammar.
    static func random(module: String, seed: UInt64) -> FuzzProgram {
        var random = FuzzRandom(seed: seed)
        let finderNames = ["TaskStore", "UserFinder", "OrderRecords", "ItemTable", "NoteRepository", "TagStore"]
        let consumerNames = ["TaskManager", "ProfileService", "OrderManager", "SyncController", "ReportBuilder"]
        var finders: [Finder] = []
        for index in 0..<(1 + random.below(3)) {
            let kind: FinderKind = random.pick([
                .finalClass(sendable: true), .finalClass(sendable: false), .openClass, .structType, .enumOfStatics, .actor,
            ])
            let superclass: SuperclassFile? = kind.mayInherit && random.chance(40)
                ? random.pick([.sameFile, .ownFile]) : nil
            let conformsToQueries = random.chance(35)
            var members: [Member] = []
            var operations: [Operation] = [.name, .count, .insert]
            if random.chance(40) { operations.append(.countPrefix) }
            if random.chance(30) { operations.append(.nameForID) }
            if random.chance(30) { operations.append(.forEachName) }
            if random.chance(25) { operations.append(.value) }
            for operation in operations where operation == .name || random.chance(70) {
                // `name` stays in the finder, synchronous: every consumer can call it.
                var placement = Placement.body
                if operation != .name {
                    if superclass != nil && random.chance(50) {
                        placement = .superclass
                    } else if conformsToQueries && random.chance(50) {
                        placement = .protocolExtension
                    }
                }
                members.append(Member(
                    operation: operation, transactionLabel: random.pick(["db", "in", "_", "transaction"]),
                    isStatic: kind == .enumOfStatics, throwing: random.chance(70),
                    isAsync: operation != .name && kind.isSendable && random.chance(45), placement: placement,
                    optionalTransaction: random.chance(15)))
            }
            var singleton = Singleton.none
            if kind.hasInstances && random.chance(45) {
                singleton = kind.isSendable && random.chance(60) ? .property : .function
            }
            let usesTypealias = random.chance(20)
            let hasLabel = random.chance(30)
            finders.append(Finder(
                name: finderNames[index], kind: kind, singleton: singleton, members: members, hasLabel: hasLabel,
                isolatedLabel: hasLabel && kind == .actor && random.chance(60),
                splitsIntoExtension: members.count > 1 && random.chance(30), usesTypealias: usesTypealias,
                usesTopLevelAlias: !usesTypealias && random.chance(25), superclass: superclass,
                conformsToQueries: conformsToQueries))
        }
        var consumers: [Consumer] = []
        for index in 0..<(1 + random.below(3)) {
            let shape: ConsumerShape = random.pick([
                .bridged(local: false), .bridged(local: true), .pool(holdsAdopted: false), .pool(holdsAdopted: true),
                .pool(holdsAdopted: true), .received(holdsAdopted: false), .received(holdsAdopted: true),
            ])
            var accesses: [Int: Access] = [:]
            let used = (0..<finders.count).filter { _ in random.chance(60) }
            for finder in used.isEmpty ? [random.below(finders.count)] : used {
                let kind = finders[finder].kind
                var choices: [Access] = []
                if kind.hasInstances {
                    choices += [
                        .injected(defaulted: true), .injected(defaulted: false),
                        .inline(isPrivate: random.chance(50), typed: random.chance(50)), .local, .parameter,
                        .optional, .temporary,
                    ]
                    if kind == .openClass || kind == .finalClass(sendable: true) || kind == .finalClass(sendable: false) {
                        choices.append(.weak)
                    }
                    if kind.isSendable { choices.append(.chain) }
                    switch finders[finder].singleton {
                    case .property: choices.append(.singleton)
                    case .function: choices.append(.sharedFunction)
                    case .none: break
                    }
                } else {
                    choices.append(.statics)
                }
                accesses[finder] = random.pick(choices)
            }
            // An async consumer runs in (or is called from) `@Sendable` async
            // blocks: it is Sendable, and so is what it holds or captures.
            let mayBeAsync = shape == .bridged(local: false) || shape == .bridged(local: true) || shape.receives
            let isAsync = mayBeAsync && random.chance(75) && accesses.allSatisfy { finder, access in
                finders[finder].kind.isSendable && access != .optional && access != .weak
            }
            var methods: [Method] = []
            for finder in accesses.keys.sorted() {
                for _ in 0..<(1 + random.below(2)) {
                    let members = finders[finder].members
                    let awaited = members.indices.filter { members[$0].isAsync }
                    // An async consumer mostly awaits, when the finder has async members.
                    let memberIndex = isAsync && !awaited.isEmpty && random.chance(70)
                        ? random.pick(awaited) : random.pick(members.indices.filter { isAsync || !members[$0].isAsync })
                    let member = finders[finder].members[memberIndex]
                    methods.append(Method(
                        name: "m\(methods.count)", finder: finder, member: memberIndex,
                        readsLabel: finders[finder].hasLabel && (isAsync || !finders[finder].isolatedLabel) && random.chance(50),
                        throwing: !(shape.receives && !member.throwing && random.chance(50))))
                }
            }
            let storesOnlySendable = accesses.allSatisfy { finder, access in
                switch access {
                case .injected, .inline: finders[finder].kind.isSendable
                case .optional, .weak: false
                default: true
                }
            }
            consumers.append(Consumer(
                name: consumerNames[index], shape: shape, isSendable: isAsync || storesOnlySendable && random.chance(50),
                accesses: accesses, methods: methods, isAsync: isAsync))
        }
        var program = FuzzProgram(
            module: module, seed: seed,
            legacyTransaction: random.chance(60) ? .database : .appTransactions,
            usesQueue: random.chance(30), finders: finders, consumers: consumers)
        program.addServices(&random)
        return program
    }

    /// A `Services` type holds the finders some consumer reaches through
    /// a chain (`Services.shared.f`).
    var chainedFinders: [Int] {
        Set(consumers.flatMap { consumer in consumer.accesses.filter { $0.value == .chain }.map(\.key) }).sorted()
    }

    /// Declares `typealias DBConn = …` at top level.
    var usesTopLevelAlias: Bool { finders.contains(where: \.usesTopLevelAlias) }
}

// MARK: Shrinking

extension FuzzProgram {
    /// Smaller programs than this one, most aggressive first: without a
    /// consumer or service, without a method, without a step of a service
    /// method, without a finder nobody uses, without an unused member.
    func shrinkCandidates() -> [FuzzProgram] {
        var candidates: [FuzzProgram] = []
        let managers = consumers.count + services.count
        if managers > 1 {
            for index in consumers.indices {
                var smaller = self
                smaller.consumers.remove(at: index)
                candidates.append(smaller.droppingUnusedFinders())
            }
            for index in services.indices {
                var smaller = self
                smaller.services.remove(at: index)
                candidates.append(smaller.droppingUnusedFinders())
            }
        }
        for (consumerIndex, consumer) in consumers.enumerated() where consumer.methods.count > 1 {
            for methodIndex in consumer.methods.indices {
                var smaller = self
                let removed = smaller.consumers[consumerIndex].methods.remove(at: methodIndex)
                if !smaller.consumers[consumerIndex].methods.contains(where: { $0.finder == removed.finder }) {
                    smaller.consumers[consumerIndex].accesses[removed.finder] = nil
                }
                candidates.append(smaller.droppingUnusedFinders())
            }
        }
        for (serviceIndex, service) in services.enumerated() {
            for methodIndex in service.methods.indices {
                if service.methods.count > 1 {
                    var smaller = self
                    smaller.services[serviceIndex].methods.remove(at: methodIndex)
                    candidates.append(smaller.droppingUnheldFinders(service: serviceIndex))
                }
                let steps = service.methods[methodIndex].steps
                for stepIndex in steps.indices where steps.count > 1 {
                    var smaller = self
                    smaller.services[serviceIndex].methods[methodIndex].steps.remove(at: stepIndex)
                    candidates.append(smaller.droppingUnheldFinders(service: serviceIndex))
                }
            }
        }
        for (finderIndex, finder) in finders.enumerated() where finder.members.count > 1 {
            for memberIndex in finder.members.indices {
                let isCalled = consumers.contains { $0.methods.contains { $0.finder == finderIndex && $0.member == memberIndex } }
                    || services.contains { $0.methods.contains { $0.steps.contains(.finder(finderIndex, member: memberIndex)) } }
                guard !isCalled else { continue }
                var smaller = self
                smaller.finders[finderIndex].members.remove(at: memberIndex)
                for c in smaller.consumers.indices {
                    for m in smaller.consumers[c].methods.indices
                    where smaller.consumers[c].methods[m].finder == finderIndex && smaller.consumers[c].methods[m].member > memberIndex {
                        smaller.consumers[c].methods[m].member -= 1
                    }
                }
                smaller.renumberServiceSteps { finder, member in
                    (finder, finder == finderIndex && member > memberIndex ? member - 1 : member)
                }
                candidates.append(smaller)
            }
        }
        return candidates.filter { $0 != self && !($0.consumers.isEmpty && $0.services.isEmpty) }
    }

    /// The program without the finders a service holds but no longer calls.
    func droppingUnheldFinders(service index: Int) -> FuzzProgram {
        var program = self
        let called = Set(services[index].methods.flatMap { method in
            method.steps.compactMap { step -> Int? in if case let .finder(finder, _) = step { finder } else { nil } }
        })
        program.services[index].accesses = program.services[index].accesses.filter { called.contains($0.key) }
        return program.droppingUnusedFinders()
    }

    /// The same program without the finders no consumer or service uses.
    func droppingUnusedFinders() -> FuzzProgram {
        var program = self
        let used = Set(consumers.flatMap { $0.accesses.keys } + services.flatMap { $0.accesses.keys })
        var renumber: [Int: Int] = [:]
        var kept: [Finder] = []
        for (index, finder) in finders.enumerated() where used.contains(index) {
            renumber[index] = kept.count
            kept.append(finder)
        }
        program.finders = kept
        for c in program.consumers.indices {
            program.consumers[c].accesses = Dictionary(uniqueKeysWithValues: program.consumers[c].accesses.map { (renumber[$0.key]!, $0.value) })
            for m in program.consumers[c].methods.indices {
                program.consumers[c].methods[m].finder = renumber[program.consumers[c].methods[m].finder]!
            }
        }
        for s in program.services.indices {
            program.services[s].accesses = Dictionary(uniqueKeysWithValues: program.services[s].accesses.map { (renumber[$0.key]!, $0.value) })
        }
        program.renumberServiceSteps { finder, member in (renumber[finder]!, member) }
        return program
    }

    /// Renumbers the finder steps of every service method.
    mutating func renumberServiceSteps(_ renumber: (Int, Int) -> (Int, Int)) {
        for s in services.indices {
            for m in services[s].methods.indices {
                services[s].methods[m].steps = services[s].methods[m].steps.map { step in
                    guard case let .finder(finder, member) = step else { return step }
                    let (newFinder, newMember) = renumber(finder, member)
                    return .finder(newFinder, member: newMember)
                }
            }
        }
    }
}
#endif
