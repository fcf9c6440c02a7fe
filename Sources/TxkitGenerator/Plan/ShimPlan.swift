#if Txkit
/// What one consumer needs from one legacy type: the members it uses,
/// resolved against their declarations, with the transaction each takes.
package struct ShimPlan {
    package var consumer: IndexedType
    package var legacy: IndexedType
    var members: [ShimMember]
    /// Every use the consumer makes of the legacy type, in source order.
    var uses: [ConsumerUse]

    /// - Throws: ``GeneratorError/refused(_:_:)`` where a shim cannot
    ///   stand for what the consumer uses, or
    ///   ``GeneratorError/unusedType(consumer:legacy:)``.
    init(consumer: IndexedType, legacy: IndexedType, configuration: GeneratorConfiguration) throws {
        do {
            try self.init(planning: consumer, legacy: legacy, configuration: configuration)
        } catch let refusal as Refusal {
            throw GeneratorError.shimRefused(consumer: consumer.name, legacy: legacy.name, [refusal])
        }
    }

    private init(planning consumer: IndexedType, legacy: IndexedType, configuration: GeneratorConfiguration) throws {
        self.consumer = consumer
        self.legacy = legacy
        guard consumer.name != legacy.name else {
            throw Refusal(
                .selfPair, at: consumer.location,
                "\(consumer.name) is both the consumer and the legacy type: a type's calls of its own members take "
                    + "its own transaction and need no shim",
                fix: "shim the pairs where another type uses \(consumer.name) (`txkit inventory` lists them), or turn "
                    + "\(consumer.name) into a protocol with `txkit convert --legacy \(consumer.name)`")
        }
        let isLegacyTransaction = configuration.isLegacyTransaction
        try Self.requireLegacyTransactionMember(in: legacy, configuration: configuration)

        guard let index = consumer.index else {
            preconditionFailure("ShimPlan needs types read by a SourceIndex that is still alive")
        }
        let scan = index.consumerScans.scan(of: consumer, for: legacy.name, index: index, configuration: configuration)
        let uses = scan.uses
        guard !uses.isEmpty else {
            if let reference = scan.unresolved.first {
                throw Refusal(
                    .unresolvedReference, at: reference.location,
                    "\(consumer.name) refers to \(legacy.name) only in ways txkit cannot follow (`\(reference.text)`), "
                        + "so it cannot tell which members are used through them",
                    fix: "name the legacy type there (a property, local or parameter of its type)")
            }
            throw GeneratorError.unusedType(consumer: consumer.name, legacy: legacy.name)
        }
        // Resolve every use, keyed by the member's position in the legacy type.
        var resolved: [Int: (member: IndexedMember, uses: [(ConsumerUse, Set<Int>)])] = [:]
        var dependencyUses: [ConsumerUse] = []
        let resolvedUses = try uses.map { use in
            (use, try Self.resolve(use, in: legacy, isLegacyTransaction: isLegacyTransaction))
        }
        // Locals, parameters and expressions through which the consumer
        // calls a member that takes a legacy transaction: services. Through
        // the others it only reads a value's data (`thread.title`, where
        // `thread` came from a fetch), which stays as it is.
        var services: Set<String> = []
        for (use, members) in resolvedUses
        where members.contains(where: { $0.0.parameters.contains { isLegacyTransaction($0.type) } }) {
            services.insert(Self.baseKey(use))
        }
        for (use, members) in resolvedUses {
            try Self.refuseCallsOnFetchedValues(
                use, members.map(\.0), legacy: legacy, isLegacyTransaction: isLegacyTransaction)
            if Self.isValueData(use, members.map(\.0), isLegacyTransaction: isLegacyTransaction),
               !services.contains(Self.baseKey(use)) {
                continue
            }
            dependencyUses.append(use)
            for (member, supplied) in members {
                resolved[member.order, default: (member, [])].uses.append((use, supplied))
            }
        }
        guard !dependencyUses.isEmpty else {
            throw GeneratorError.unusedType(consumer: consumer.name, legacy: legacy.name)
        }
        self.uses = dependencyUses

        let bodies = LegacyBodies(legacy: legacy, isLegacyTransaction: isLegacyTransaction)
        members = try resolved.keys.sorted().flatMap { order -> [ShimMember] in
            let (member, memberUses) = resolved[order]!
            var transactions: [Int: TransactionKind] = [:]
            var transactionDecision: TransactionDecision?
            for (index, parameter) in member.parameters.enumerated()
            where configuration.legacyTransaction(forParameterType: parameter.type) != nil {
                let decision = Self.transactionDecision(
                    of: member, parameterType: parameter.type, in: legacy, uses: memberUses.map(\.0),
                    configuration: configuration, bodies: bodies)
                transactions[index] = decision.kind
                transactionDecision = decision
            }
            if transactions.count > 1 {
                throw Refusal(
                    .unsupportedUse, at: member.declaration,
                    "\(legacy.name).\(member.displayName) takes \(transactions.count) legacy transactions, and a shim "
                        + "member takes one TransactionKit transaction",
                    fix: "give it one legacy transaction, then run again")
            }
            if let variadic = member.parameters.first(where: \.isVariadic) {
                throw Refusal(
                    .unsupportedUse, at: member.declaration,
                    "\(legacy.name).\(member.displayName) has a variadic parameter (\(variadic.name)), which a "
                        + "wrapper cannot forward (Swift has no argument splat)",
                    fix: "add an overload taking an array to \(legacy.name) and call that")
            }
            // A generic member constrained by a module shims leave out
            // (GRDB's `DatabaseValueConvertible`): one requirement per type
            // the consumer passes (`as: String.self`), without generics.
            var specializations = [(member, memberUses)]
            if let constraint = Self.excludedConstraint(of: member, in: legacy, configuration: configuration) {
                guard let specialized = Self.specializations(of: member, uses: memberUses) else {
                    throw Refusal(
                        .unsupportedUse, at: member.declaration,
                        "\(legacy.name).\(member.displayName) constrains its generic parameters with \(constraint), "
                            + "which may come from a module that shims leave out (excludedImports: "
                            + "\(configuration.excludedImports.joined(separator: ", "))), and not every call of "
                            + "\(consumer.name) names its type with a metatype argument (`as: String.self`): the shim "
                            + "would not compile",
                        fix: "pass the type that way, or add a non-generic overload for the types \(consumer.name) "
                            + "uses and call that")
                }
                specializations = specialized
            }
            // A member isolated to an actor finder, which the consumer
            // awaits from outside it: the requirement is `async` and the
            // wrapper awaits it. One taking a legacy transaction stays
            // refused: the connection would be sent into the actor.
            var awaitsIsolation = false
            if let reason = Self.actorIsolationRefusal(of: member, in: legacy) {
                guard transactions.isEmpty else {
                    throw Refusal(
                        .unsupportedUse, at: memberUses.first?.0.location ?? member.declaration, reason.reason, fix: reason.fix)
                }
                awaitsIsolation = true
            }
            var isWritten = false
            for (use, _) in memberUses {
                if case let .property(_, isWrite) = use.form, isWrite { isWritten = true }
            }
            if isWritten && !member.isStatic && legacy.kind != .class && legacy.kind != .actor {
                throw Refusal(
                    .unsupportedUse,
                    at: memberUses.first { if case .property(_, true) = $0.0.form { true } else { false } }!.0.location,
                    "\(consumer.name) writes \(legacy.name).\(member.name), an instance property of a value type, "
                        + "and a shared wrapper cannot mutate its copy",
                    fix: "make \(legacy.name) a class, or write the property through a method that takes a legacy "
                        + "transaction")
            }
            return specializations.map { specialized, specializedUses in
                var specialized = specialized
                if awaitsIsolation { specialized.isAsync = true }
                var shimMember = ShimMember(
                    legacy: specialized,
                    transactions: transactions,
                    suppliedSets: Set(specializedUses.map { $0.1.sorted() }),
                    isWritten: isWritten)
                shimMember.decision = transactionDecision
                if specialized != member { shimMember.declared = member }
                return shimMember
            }
        }
        Self.nameStubs(&members)
    }

    /// Why a member of an actor that is isolated to it cannot be
    /// converted, or shimmed when it takes a legacy transaction, or nil:
    /// code outside the actor (a wrapper, the actor's conformance to a
    /// finder protocol) reaches it only with `await`. A shim makes the
    /// requirement of any other such member `async` instead.
    static func actorIsolationRefusal(of member: IndexedMember, in legacy: IndexedType) -> (reason: String, fix: String)? {
        guard legacy.kind == .actor, !member.isStatic, !member.isExemptFromActorIsolation,
              legacy.members.contains(member)
        else { return nil }
        let what = if case .property = member.kind { "property" } else { "method" }
        return (
            "\(legacy.name).\(member.displayName) is a \(what) isolated to the actor \(legacy.name) "
                + "(\(member.location)); code outside the actor reaches it only with `await`, which a synchronous "
                + "requirement does not allow",
            "make it `nonisolated` (a `let` for a constant), or keep the call on \(legacy.name), then run again")
    }

    /// The first type a generic member's constraints name that neither the
    /// sources nor the standard library declare, when the legacy type's
    /// files import a module shims leave out (`DatabaseValueConvertible`
    /// of GRDB): the shim, without that import, could not name it.
    static func excludedConstraint(
        of member: IndexedMember, in legacy: IndexedType, configuration: GeneratorConfiguration
    ) -> String? {
        guard !member.genericParameters.isEmpty || !member.whereClause.isEmpty,
              legacy.imports.contains(where: configuration.excludedImports.contains)
        else { return nil }
        let standard: Set<String> = [
            "Any", "AnyObject", "Sendable", "Equatable", "Hashable", "Comparable", "Codable", "Decodable", "Encodable",
            "Identifiable", "CustomStringConvertible", "Error", "Numeric", "BinaryInteger", "FixedWidthInteger",
            "SignedInteger", "UnsignedInteger", "FloatingPoint", "BinaryFloatingPoint", "StringProtocol", "Sequence",
            "Collection", "RandomAccessCollection", "RawRepresentable", "CaseIterable", "Int", "String", "Double",
            "Bool", "Self",
        ]
        let generics = Set(member.genericParameterNames)
        let text = member.genericParameters + " " + member.whereClause
        var names: [String] = []
        var current = ""
        for character in text + " " {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                if let first = current.first, first.isUppercase { names.append(current) }
                current = ""
            }
        }
        return names.first { name in
            !generics.contains(name) && !standard.contains(name) && legacy.index?.types[name] == nil
        }
    }

    /// Whether `use` reads data of a value the consumer holds (a local, a
    /// parameter, a member's result) through members that take no legacy
    /// transaction.
    static func isValueData(
        _ use: ConsumerUse, _ members: [IndexedMember], isLegacyTransaction: (String) -> Bool
    ) -> Bool {
        switch use.base {
        case .variable, .expression:
            return !members.isEmpty && members.allSatisfy { member in
                !member.isStatic && !member.parameters.contains { isLegacyTransaction($0.type) }
            }
        case .type, .storedProperty:
            return false
        }
    }

    /// What a use is reached through, for telling values from services.
    static func baseKey(_ use: ConsumerUse) -> String {
        switch use.base {
        case .type: "type"
        case let .storedProperty(name): "property " + name
        case let .variable(name): use.file.path + " variable " + name
        case let .expression(text): use.file.path + " expression " + text
        }
    }

    /// Verbs that start the names of members that write.
    static let writingVerbs = [
        "insert", "update", "upsert", "delete", "remove", "set", "save", "add", "create", "mark", "write",
        "clear", "increment", "decrement", "replace", "store", "put", "append", "erase", "purge", "reset",
        "drop", "register", "unregister", "block", "unblock", "enqueue", "dequeue", "move", "rename", "touch",
        "apply", "commit", "import", "migrate", "archive", "restore", "sync", "merge", "assign", "link", "unlink",
    ]

    /// The members a use can mean, as Swift would pick them where the
    /// source says enough: labels and arity first (defaulted parameters
    /// skippable), then the argument types that are known (literals, typed
    /// values, enum cases) rule out overloads, then the overload that
    /// leaves fewer defaulted parameters out wins. Overloads still left
    /// that differ only by parameter types all come along (a shim with one
    /// overload too many still compiles); overloads still left whose
    /// labels fit differently are ambiguous.
    ///
    /// Members come from the type, its extensions, its superclasses and
    /// the protocols it adopts, when those are in the sources.
    static func resolve(
        _ use: ConsumerUse, in legacy: IndexedType, isLegacyTransaction: (String) -> Bool
    ) throws -> [(IndexedMember, Set<Int>)] {
        let named = legacy.allMembers { $0.name == use.memberName }
        let candidates = { (members: [IndexedMember]) in
            members.map { "\(legacy.name).\($0.displayName) at \($0.location)" }
        }
        let noMatchingMember = { (candidates: [String]) in
            candidates.isEmpty
                ? Refusal(
                    .noMatchingMember, at: use.location,
                    "\(use.text) uses no member that \(legacy.name), its superclasses or its protocols declare in "
                        + "the sources")
                : Refusal(.noMatchingMember, at: use.location, "\(use.text) fits none of these members", details: candidates)
        }
        switch use.form {
        case .property:
            let properties = named.filter { if case .property = $0.kind { true } else { false } }
            guard let property = properties.first else {
                throw noMatchingMember(candidates(named))
            }
            return [(property, [])]
        case let .call(labels):
            var matches: [(member: IndexedMember, supplied: Set<Int>, filled: [Int])] = named.compactMap { member in
                guard case .function = member.kind else { return nil }
                let matcher = CallMatcher(
                    member: member, shimForm: !use.isThroughLegacyType, isLegacyTransaction: isLegacyTransaction)
                return matcher.argumentParameters(labels).map { (member, Set($0), $0) }
            }
            guard !matches.isEmpty else {
                throw noMatchingMember(candidates(named))
            }
            // Argument types the source states rule overloads out.
            let typed = matches.filter { match in
                zip(use.argumentTypes, match.filled).allSatisfy { argument, parameter in
                    guard let argument else { return true }
                    return ArgumentFit.fits(argument, match.member.parameters[parameter], of: match.member, index: legacy.index)
                }
            }
            if !typed.isEmpty { matches = typed }
            // Fewer defaulted parameters left out wins (Swift ranks so).
            let shape = { (member: IndexedMember) in member.parameters.map(\.label) }
            if matches.contains(where: { shape($0.member) != shape(matches[0].member) }) {
                let omitted = { (match: (member: IndexedMember, supplied: Set<Int>, filled: [Int])) in
                    match.member.parameters.count - match.supplied.count
                }
                let fewest = matches.map(omitted).min()!
                matches = matches.filter { omitted($0) == fewest }
            }
            // The same signature twice (in two `#if` branches) is one member.
            var signatures: Set<String> = []
            matches = matches.filter { match in
                let parameters = match.member.parameters.map { "\($0.label ?? "_"):\($0.type)" }
                return signatures.insert(parameters.joined(separator: ",") + (match.member.isStatic ? " static" : "")).inserted
            }
            if matches.contains(where: { shape($0.member) != shape(matches[0].member) }) {
                throw Refusal(
                    .ambiguousCall, at: use.location, "\(use.text) matches several members",
                    fix: "label the arguments or remove an overload", details: candidates(matches.map(\.member)))
            }
            for match in matches {
                for (index, parameter) in match.member.parameters.enumerated()
                where isLegacyTransaction(parameter.type) && !match.supplied.contains(index) {
                    throw Refusal(
                        .unsupportedUse, at: use.location,
                        "\(use.text) leaves out the legacy transaction of \(legacy.name).\(match.member.displayName), "
                            + "whose default runs it outside the caller's transaction",
                        fix: "pass the transaction")
                }
            }
            return matches.map { ($0.member, $0.supplied) }
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
            // Still the same (`find(id:)` and `find(forID id:)` record the
            // same names and types): the argument labels tell them apart,
            // then the position among the overloads (2, 3…).
            var sameNames = Dictionary(grouping: indices, by: { names[$0]! })
            for index in indices where sameNames[names[index]!]!.count > 1 {
                let labels = members[index].recordedParameters.map { $0.parameter.label ?? "_" }
                names[index]! += "Labeled" + labels.map { SwiftText.capitalized($0 == "_" ? "unlabeled" : $0) }.joined()
            }
            sameNames = Dictionary(grouping: indices, by: { names[$0]! })
            for (_, group) in sameNames where group.count > 1 {
                for (position, index) in group.sorted().enumerated() where position > 0 {
                    names[index]! += String(position + 1)
                }
            }
            for index in indices {
                members[index].stubName = names[index]!
            }
        }
    }
}
#endif
