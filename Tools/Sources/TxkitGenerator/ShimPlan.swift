/// What one consumer needs from one legacy type: the members it uses,
/// resolved against their declarations, with the transaction each takes.
struct ShimPlan {
    var consumer: LegacyType
    var legacy: LegacyType
    var members: [ShimMember]
    /// Every use the consumer makes of the legacy type, in source order.
    var uses: [ConsumerUse]

    init(consumer: LegacyType, legacy: LegacyType, configuration: GeneratorConfiguration) throws {
        self.consumer = consumer
        self.legacy = legacy
        let isLegacyTransaction = { (type: String) in configuration.legacyTransaction(named: type) != nil }
        try Self.requireLegacyTransactionMember(in: legacy, configuration: configuration)

        var uses: [ConsumerUse] = []
        let stored = ConsumerScanner.storedProperties(
            of: consumer.declarations, consumer: consumer.name, legacy: legacy.name)
        for declaration in consumer.declarations {
            let scanner = ConsumerScanner(
                consumer: consumer.name, legacy: legacy.name, file: declaration.file, storedProperties: stored)
            scanner.walk(declaration.memberBlock)
            uses += scanner.uses
        }
        guard !uses.isEmpty else {
            throw GeneratorError.unusedType(consumer: consumer.name, legacy: legacy.name)
        }
        self.uses = uses

        // Resolve every use, keyed by the member's position in the legacy type.
        var resolved: [Int: (member: LegacyMember, uses: [(ConsumerUse, Set<Int>)])] = [:]
        for use in uses {
            for (member, supplied) in try Self.resolve(use, in: legacy, isLegacyTransaction: isLegacyTransaction) {
                resolved[member.order, default: (member, [])].uses.append((use, supplied))
            }
        }

        let bodies = LegacyBodies(legacy: legacy, isLegacyTransaction: isLegacyTransaction)
        members = try resolved.keys.sorted().map { order in
            let (member, memberUses) = resolved[order]!
            var transactions: [Int: String] = [:]
            var access: AccessDecision?
            for (index, parameter) in member.parameters.enumerated()
            where configuration.legacyTransaction(named: parameter.type) != nil {
                let decision = Self.access(
                    of: member, parameterType: parameter.type, in: legacy, uses: memberUses.map(\.0),
                    configuration: configuration, bodies: bodies)
                transactions[index] = decision.transactionType
                access = decision
            }
            if transactions.count > 1 {
                throw GeneratorError.unsupportedUse(
                    "\(legacy.name).\(member.displayName) takes \(transactions.count) legacy transactions",
                    location: member.location)
            }
            if let variadic = member.parameters.first(where: \.isVariadic) {
                throw GeneratorError.unsupportedUse(
                    "\(legacy.name).\(member.displayName) has a variadic parameter (\(variadic.name)), which a "
                        + "wrapper cannot forward (Swift has no argument splat); add an overload taking an array "
                        + "to \(legacy.name) and call that",
                    location: member.location)
            }
            var isWritten = false
            for (use, _) in memberUses {
                if case let .property(_, isWrite) = use.access, isWrite { isWritten = true }
            }
            if isWritten && !member.isStatic && legacy.kind != .class && legacy.kind != .actor {
                throw GeneratorError.unsupportedUse(
                    "\(consumer.name) writes \(legacy.name).\(member.name), an instance property of a value type; "
                        + "a shared wrapper cannot mutate its copy",
                    location: memberUses.first { if case .property(_, true) = $0.0.access { true } else { false } }!.0.location)
            }
            var shimMember = ShimMember(
                legacy: member,
                transactions: transactions,
                suppliedSets: Set(memberUses.map { $0.1.sorted() }),
                isWritten: isWritten)
            shimMember.access = access
            return shimMember
        }
        Self.nameStubs(&members)
    }

    /// Verbs that start the names of members that write.
    static let writingVerbs = [
        "insert", "update", "upsert", "delete", "remove", "set", "save", "add", "create", "mark", "write",
        "clear", "increment", "decrement", "replace", "store", "put", "append", "erase", "purge", "reset",
        "drop", "register", "unregister", "block", "unblock", "enqueue", "dequeue", "move", "rename", "touch",
        "apply", "commit", "import", "migrate", "archive", "restore", "sync", "merge", "assign", "link", "unlink",
    ]

    /// The members a use can mean. Overloads that differ only by parameter
    /// types all come along (the generator has no type checker, and a shim
    /// with one overload too many still compiles); overloads whose labels
    /// both fit differently are ambiguous.
    static func resolve(
        _ use: ConsumerUse, in legacy: LegacyType, isLegacyTransaction: (String) -> Bool
    ) throws -> [(LegacyMember, Set<Int>)] {
        let named = legacy.members.filter { $0.name == use.memberName }
        switch use.access {
        case .property:
            let properties = named.filter { if case .property = $0.kind { true } else { false } }
            guard let property = properties.first else {
                throw GeneratorError.noMatchingMember(
                    use.text, location: use.location,
                    candidates: named.map { "\(legacy.name).\($0.displayName) at \($0.location)" })
            }
            return [(property, [])]
        case let .call(labels):
            let matches: [(LegacyMember, Set<Int>)] = named.compactMap { member in
                guard case .function = member.kind else { return nil }
                let matcher = CallMatcher(
                    member: member, shimForm: !use.isThroughLegacyType, isLegacyTransaction: isLegacyTransaction)
                return matcher.match(labels).map { (member, $0) }
            }
            guard let first = matches.first else {
                throw GeneratorError.noMatchingMember(
                    use.text, location: use.location,
                    candidates: named.map { "\(legacy.name).\($0.displayName) at \($0.location)" })
            }
            let shape = { (member: LegacyMember) in member.parameters.map(\.label) }
            if matches.contains(where: { shape($0.0) != shape(first.0) }) {
                throw GeneratorError.ambiguousCall(
                    use.text, location: use.location,
                    candidates: matches.map { "\(legacy.name).\($0.0.displayName) at \($0.0.location)" })
            }
            return matches
        }
    }

    /// Stub names: the member's name; overloads add `By` and their first
    /// distinguishing labels (`userByID`, `userByName`), then their
    /// parameter types; a method with no parameter at all gets `Call`
    /// (a class cannot hold a property and a method both named `refresh`).
    static func nameStubs(_ members: inout [ShimMember]) {
        var byName: [String: [Int]] = [:]
        for (index, member) in members.enumerated() {
            byName[member.legacy.name, default: []].append(index)
        }
        for (name, indices) in byName {
            if indices.count == 1 {
                let member = members[indices[0]]
                let isBareMethod = member.legacy.kind == .function && member.legacy.parameters.isEmpty
                members[indices[0]].stubName = isBareMethod ? name + "Call" : name
                continue
            }
            var names: [Int: String] = [:]
            for index in indices {
                let labels = members[index].recordedParameters.map { $0.parameter.name }
                names[index] = name + (labels.isEmpty ? "" : "By" + labels.map(SwiftText.capitalized).joined())
            }
            let counts = Dictionary(grouping: indices, by: { names[$0]! })
            for index in indices where counts[names[index]!]!.count > 1 {
                let types = members[index].recordedParameters.map { SwiftText.identifier(from: $0.parameter.type) }
                names[index]! += types.joined()
            }
            for index in indices {
                members[index].stubName = names[index]!
            }
        }
    }
}
