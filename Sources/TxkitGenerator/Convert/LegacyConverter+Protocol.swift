#if Txkit
import SwiftSyntax
import Foundation

/// The finder's protocol, its conformance and its mock.
extension LegacyConverter {
    /// One requirement of the protocol.
    struct Requirement {
        var member: IndexedMember
        /// The converted member behind it, `nil` for a member that takes
        /// no transaction (a property a consumer reads).
        var converted: ConvertedMember?
        /// The parameter sets calls through a shim supplied.
        var supplied: Set<[Int]> = []

        var shimMember: ShimMember {
            guard let converted else {
                return ShimMember(legacy: member, transactions: [:], suppliedSets: supplied, isWritten: false, isBridged: false)
            }
            var shimMember = ShimMember(
                legacy: member, transactions: [converted.parameterIndex: converted.kind], suppliedSets: supplied,
                isWritten: false)
            shimMember.decision = converted.decision
            return shimMember
        }
    }

    /// What the protocol declares: the members callers use (through the
    /// finder or a shim of it); every converted member when no caller is
    /// in the sources. In the finder's order.
    var protocolMembers: [Requirement] {
        let used = legacy.members.filter { usedMembers.contains($0.location) }
        let convertedUsed = converted.filter { usedMembers.contains($0.member.location) }
        if convertedUsed.isEmpty {
            return converted.map { Requirement(member: $0.member, converted: $0) }
        }
        return used.compactMap { member in
            if let converted = converted.first(where: { $0.member.location == member.location }) {
                return Requirement(member: member, converted: converted, supplied: suppliedSets[member.location] ?? [])
            }
            // A member that still takes a legacy transaction stays out.
            if member.parameters.contains(where: { isLegacyTransaction($0.type) }) { return nil }
            if case .function = member.kind, member.isStatic { return nil }
            return Requirement(member: member, converted: nil, supplied: suppliedSets[member.location] ?? [])
        }
    }

    /// The protocol's members whose values its mock cannot hold (a class
    /// of the tree that is not `Sendable`), as blockers: the mock would not
    /// compile.
    var unsendableRequirements: [Refusal] {
        protocolMembers.compactMap { requirement in
            let member = requirement.member
            let parameters = member.parameters.filter { !isLegacyTransaction($0.type) }
            let names = (parameters.map(\.type) + [member.resultType].compactMap { $0 }).flatMap(ShimPlan.valueTypeNames)
            guard let name = names.first(where: { index.types[$0].map { !ShimPlan.isSendable($0, index: index) } ?? false })
            else { return nil }
            return block(
                member.declaration,
                "\(legacy.name).\(member.displayName) passes a \(name), a class that is not Sendable: "
                    + "\(GeneratedLayout.protocolMockName(protocol: protocolName)) cannot hold it (MockMethod keeps "
                    + "Sendable values)",
                fix: "declare \(name) Sendable (or @unchecked Sendable if it guards its state), then run again")
        }
    }

    /// The protocol's members isolated to an actor finder, as blockers:
    /// the actor could not witness their synchronous requirements.
    var actorIsolatedRequirements: [Refusal] {
        protocolMembers.compactMap { requirement in
            ShimPlan.actorIsolationRefusal(of: requirement.member, in: legacy).map {
                block(requirement.member.declaration, $0.reason, fix: $0.fix)
            }
        }
    }

    /// A struct finder that is `Sendable` only implicitly, whose shim a
    /// consumer declared `Sendable` holds: after the conversion that
    /// consumer holds `any Protocol`, which is `Sendable` only if the
    /// protocol refines `Sendable`, and the finder's conformance to such a
    /// protocol must then be declared in the finder's own file. The person
    /// says `Sendable` on the finder (one word), and the protocol follows.
    var implicitlySendableBlockers: [Refusal] {
        guard legacy.kind == .struct, !Self.declaresSendable(legacy.inherited) else { return [] }
        let consumers = pairs.map(\.consumer).filter { Self.declaresSendable($0.inherited, checked: true) }
        guard !consumers.isEmpty else { return [] }
        let names = consumers.map(\.name).joined(separator: ", ")
        return [block(
            legacy.declarationLocation,
            "\(names) \(consumers.count == 1 ? "is" : "are") Sendable and hold\(consumers.count == 1 ? "s" : "") "
                + "\(legacy.name)'s shim, but \(legacy.name) is Sendable only implicitly, so \(protocolName) cannot be "
                + "Sendable",
            fix: "declare \(legacy.name) Sendable (`struct \(legacy.name): Sendable`), then run again")]
    }

    /// Whether an inheritance list says `Sendable` (`@unchecked Sendable`
    /// too, unless `checked`).
    static func declaresSendable(_ inherited: [String], checked: Bool = false) -> Bool {
        inherited.contains { type in
            let bare = type.trimmingCharacters(in: .whitespaces)
            return bare == "Sendable" || !checked && bare.replacingOccurrences(of: "@unchecked ", with: "") == "Sendable"
        }
    }

    /// The protocol's members that return an opaque type (`some P`),
    /// which a protocol requirement cannot declare, as blockers.
    var opaqueRequirements: [Refusal] {
        protocolMembers.compactMap { requirement in
            guard let result = requirement.member.resultType, result.hasPrefix("some ") else { return nil }
            return block(
                requirement.member.declaration,
                "\(legacy.name).\(requirement.member.displayName) returns `\(result)`, which \(protocolName) cannot "
                    + "require (a requirement has no opaque result)",
                fix: "make it return `any \(result.dropFirst("some ".count))`, then run again")
        }
    }

    /// A GRDB record is no finder to inject: its members are called on its
    /// values (`note.save(db)`), and a record has no argument-free
    /// initializer for production to pass.
    var recordBlockers: [Refusal] {
        guard let conformance = legacy.inherited.first(where: { GRDBVocabulary.recordProtocols.contains(SourceIndex.coreTypeName($0)) })
        else { return [] }
        return [block(
            legacy.declarations.first { !$0.isExtension }.map { $0.file.sourceLocation(of: $0.memberBlock.parent ?? Syntax($0.memberBlock)) }
                ?? legacy.location,
            "\(legacy.name) is a GRDB record (\(conformance)): callers use its values and static fetches, not an "
                + "instance injected as a finder",
            fix: "run txkit migrate on the managers that use it: their uses of \(legacy.name) go into their Database shims")]
    }

    /// A protocol of the sources the finder adopts whose requirements take
    /// the legacy transaction: converting the finder's members alone would
    /// leave it not conforming (the build would break).
    var adoptedProtocolBlockers: [Refusal] {
        let converting = Set(converted.map(\.member.name))
        return legacy.inherited.compactMap { name -> Refusal? in
            guard let adopted = index.types[SourceIndex.coreTypeName(name)], adopted.kind == .protocol else { return nil }
            let associated = adopted.associatedTypeNames
            let takesLegacyTransaction = adopted.members.contains { member in
                converting.contains(member.name) && member.parameters.contains { parameter in
                    isLegacyTransaction(parameter.type) || associated.contains(SourceIndex.coreTypeName(parameter.type))
                }
            }
            guard takesLegacyTransaction else { return nil }
            return block(
                adopted.location,
                "\(legacy.name) conforms to \(adopted.name), whose requirements take the legacy transaction: its converted "
                    + "members would no longer satisfy them",
                fix: "convert \(adopted.name)'s requirements first (or drop \(legacy.name)'s conformance), then run again")
        }
    }

    /// Where the protocol goes: beside the finder's declaration.
    var protocolPath: String {
        let declaration = legacy.declarations.first { !$0.isExtension } ?? legacy.declarations[0]
        let folder = (rootRelative(declaration.file.path) as NSString).deletingLastPathComponent
        return folder.isEmpty ? "\(protocolName).swift" : "\(folder)/\(protocolName).swift"
    }

    /// The protocol's access level: that of the retired shims (txkit.json's
    /// `accessLevel`, narrowed to each consumer's), or the finder's when
    /// they were wider or there were none; never wider than the finder's
    /// members that witness it (an `open` finder's members are internal
    /// unless they say otherwise, and a public protocol would not compile).
    var protocolAccess: AccessLevel {
        let levels = pairs.map { min(configuration.accessLevel, $0.consumer.accessLevel) }
            + [min(legacy.accessLevel, .public)]
        // Kept statics are witnessed by forwarders written at the protocol's level.
        let witnesses = protocolMembers
            .filter { !($0.converted != nil && $0.member.isStatic && statics == .keep) }
            .map { min($0.member.accessLevel, legacy.accessLevel, .public) }
        return min(levels.max() ?? .internal, witnesses.min() ?? .public)
    }

    /// The render stage of the protocol and the finder's conformance to it.
    func protocolFile() -> GeneratedFile {
        FinderProtocolRenderer(
            legacy: legacy, protocolName: protocolName,
            requirements: protocolMembers.map { requirement in
                FinderProtocolRenderer.Requirement(
                    shimMember: requirement.shimMember, supplied: requirement.supplied,
                    converted: requirement.converted.map { ($0.parameterIndex, $0.displayName) },
                    isSet: writtenMembers.contains(requirement.member.location))
            },
            access: protocolAccess, keepsStatics: statics == .keep, configuration: configuration
        ).file(at: protocolPath)
    }
}
#endif
