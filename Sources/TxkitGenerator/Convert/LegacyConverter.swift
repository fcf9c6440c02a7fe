#if Txkit
import Foundation
import SwiftSyntax

/// Plans a ``LegacyConversion``: reads the finder, its callers and the
/// shims of its consumers, and collects the text edits, new files and
/// deletions (see the extensions for each part).
struct LegacyConverter {
    let generator: Generator
    let legacy: IndexedType
    let protocolName: String
    let statics: LegacyConversion.Statics
    var configuration: GeneratorConfiguration { generator.configuration }
    var index: SourceIndex { generator.index }
    var root: String { generator.root }

    /// The edits of the finder, its callers and the code that used its shims.
    var edits = EditBuffer()
    var blockers: [Refusal] = []
    /// The members that take a legacy transaction, with their conversion.
    var converted: [ConvertedMember] = []
    /// Members a caller outside the finder uses, by location.
    var usedMembers: Set<String> = []
    /// The parameter sets calls through a shim supply, by member location
    /// (the protocol gets overloads for those that leave defaults out).
    var suppliedSets: [String: Set<[Int]>] = [:]
    /// Properties a caller outside the finder sets, by location.
    var writtenMembers: Set<String> = []
    /// Bridge locals whose references the callers' edits replaced.
    var bridgeLocals: [BridgeLocal] = []
    /// The consumers whose shims go.
    var pairs: [RetiredPair] = []

    /// One member of the finder that takes a legacy transaction.
    struct ConvertedMember {
        var member: IndexedMember
        var function: FunctionDeclSyntax
        var file: SourceFile
        /// The index of the legacy transaction parameter.
        var parameterIndex: Int
        /// `DBReadTransaction` or `DBWriteTransaction`.
        var kind: TransactionKind
        var decision: TransactionDecision
        /// The parameter's name inside the body (the legacy transaction's).
        var legacyName: String
        /// The TransactionKit transaction's name inside the body.
        var transactionName: String
        /// The legacy transaction configuration of the parameter.
        var legacyTransaction: GeneratorConfiguration.LegacyTransaction

        /// `name(label:_:)` after the conversion.
        var displayName: String {
            let labels = member.parameters.enumerated().map { index, parameter in
                (index == parameterIndex ? "_" : parameter.label ?? "_") + ":"
            }
            return "\(member.name)(\(labels.joined()))"
        }
    }

    /// The conversion of the finder `legacyName` to the protocol
    /// `protocolName`, before anything is planned.
    init(
        generator: Generator, legacy legacyName: String, protocolName: String?, statics: LegacyConversion.Statics
    ) throws {
        self.generator = generator
        legacy = try generator.index.type(named: legacyName)
        self.protocolName = protocolName ?? GeneratedLayout.findingProtocolName(legacy: legacyName)
        self.statics = statics
        let refuse = { (refusal: Refusal) in GeneratorError.convertRefused(legacy: legacyName, [refusal]) }
        guard let kind = legacy.kind, kind != .protocol else {
            throw refuse(Refusal(
                .cannotConvert, at: legacy.location,
                "\(legacyName) is \(legacy.kind == .protocol ? "a protocol" : "known only from extensions"), and "
                    + "txkit convert converts a class, struct, enum or actor",
                fix: legacy.kind == .protocol
                    ? "convert the types that conform to it (`txkit inventory` lists the legacy types)"
                    : "pass --legacy a type whose declaration is in the sources"))
        }
        do {
            try ShimPlan.requireLegacyTransactionMember(in: legacy, configuration: generator.configuration)
        } catch let refusal as Refusal {
            throw refuse(refusal)
        }
        if let existing = generator.index.types[self.protocolName] {
            throw refuse(Refusal(
                .cannotConvert, at: existing.location, "a type named \(self.protocolName) exists already",
                fix: "choose another name with --protocol"))
        }
        pairs = try retiredPairs()
    }

    var isLegacyTransaction: (String) -> Bool {
        configuration.isLegacyTransaction
    }

    /// A place the conversion leaves to a person.
    func block(_ location: SourceLocation, _ reason: String, fix: String = "", details: [String] = []) -> Refusal {
        Refusal(.cannotConvert, at: location, reason, fix: fix, details: details)
    }

    /// Blockers of the pairs whose shims the conversion retires.
    mutating func checkRetiredPairs() {
        if !pairs.isEmpty, legacy.kind == .enum {
            blockers.append(block(
                legacy.declarationLocation,
                "\(pairs.map(\.consumer.name).joined(separator: ", ")) hold\(pairs.count == 1 ? "s" : "") an instance of "
                    + "\(legacy.name)'s shim, but \(legacy.name) is an enum",
                fix: "make it a struct, then run again"))
        }
        for pair in pairs {
            // The conversion deletes the wrapper, and its WeakReference
            // with it; holding the new protocol weakly would need it to be
            // class-bound, which the conversion does not decide.
            if case let .reference(location)? = ShimPlan.weakHolding(of: legacy.name, in: pair.consumer) {
                blockers.append(block(
                    location,
                    "\(pair.consumer.name) holds \(legacy.name)'s shim weakly, through its wrapper's "
                        + "\(ShimPlan.weakReferenceTypeName), which goes with the shim",
                    fix: "hold the instance strongly, or keep the shim"))
            }
            // A Sendable consumer of a non-Sendable class holds a wrapper
            // that makes an instance per call; the protocol that replaces
            // the shim is not Sendable, and the consumer could not hold it.
            if let plan = try? ShimPlan(consumer: pair.consumer, legacy: legacy, configuration: configuration),
               plan.makesLegacyPerCall {
                blockers.append(block(
                    pair.consumer.declarationLocation,
                    "\(pair.consumer.name) is Sendable and holds \(legacy.name)'s shim, whose wrapper makes a "
                        + "\(legacy.name) for each call, since \(legacy.name) is not Sendable; neither would "
                        + "\(protocolName) be, and \(pair.consumer.name) could not hold it",
                    fix: "declare \(legacy.name) Sendable (or @unchecked Sendable if it guards its state), or keep "
                        + "the shim"))
            }
        }
        blockers += implicitlySendableBlockers
    }

    /// The rewrite stage: the finder's declarations, its callers, the
    /// names of the retired shims in the code and tests a person wrote.
    mutating func rewrite(uses: [(ConsumerUse, IndexedMember)]) {
        convertFinderDeclarations()
        rewriteCallers(uses: uses)
        rewriteShimReferences(pairs: pairs)
    }

    /// Blockers of the protocol's requirements: values its mock cannot
    /// hold, members isolated to an actor finder, opaque results.
    mutating func checkProtocolRequirements() {
        blockers += unsendableRequirements
        blockers += actorIsolatedRequirements
        blockers += opaqueRequirements
        blockers += recordBlockers
        blockers += adoptedProtocolBlockers
    }

    /// The conversion: the edits made so far, `files` (the protocol and
    /// its mock) and the retired pairs' namespaces and files.
    mutating func conversion(files: [GeneratedFile]) throws -> LegacyConversion {
        BridgeLocal.removeUnread(bridgeLocals, edits: &edits)
        let fileEdits = try edits.consumerEdits().filter { $0.edited != $0.original }
        var files = files
        var originals: [String: String] = [:]
        let (namespaces, deletions) = namespaceChanges(pairs: pairs)
        for file in namespaces {
            originals[file.path] = read(file.path)
        }
        files += namespaces
        let retired = deletions + pairs.flatMap { retiredFiles(of: $0) }
        for path in retired {
            originals[path] = read(path)
        }
        let inProtocol = protocolMembers.map(\.member.location)
        return LegacyConversion(
            legacy: legacy.name, protocolName: protocolName, mockName: GeneratedLayout.protocolMockName(protocol: protocolName),
            members: converted.map { member in
                LegacyConversion.Member(
                    name: member.displayName, transaction: member.kind,
                    decision: "\(member.decision.reason) (rule: \(member.decision.rule.rawValue))",
                    isInProtocol: inProtocol.contains(member.member.location))
            },
            files: files, edits: fileEdits, deletions: retired.sorted(), originals: originals,
            retiredPairs: pairs.map { "\($0.consumer.name) → \(legacy.name)" },
            blockers: blockers,
            displayPaths: Dictionary(uniqueKeysWithValues: fileEdits.map { ($0.path, rootRelative($0.path)) }))
    }

    /// A file's text relative to the root, or nil.
    func read(_ path: String) -> String? {
        let absolute = path.hasPrefix("/") || root.isEmpty ? path : (root as NSString).appendingPathComponent(path)
        return try? String(contentsOfFile: absolute, encoding: .utf8)
    }

    /// A source path (as read, through the root) relative to the root.
    func rootRelative(_ path: String) -> String {
        guard !root.isEmpty else { return path }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        if root == "." { return path }
        return (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }
}
#endif
