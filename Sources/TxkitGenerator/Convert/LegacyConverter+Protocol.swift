#if Txkit
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

    /// One extension method per way of leaving defaulted parameters out
    /// (a requirement has no default values): every way for up to three
    /// defaulted parameters, else those callers used through a shim. Each
    /// calls the requirement with the finder's defaults.
    private func defaultOverloads(_ requirement: Requirement, modifier: String) -> [[String]] {
        let member = requirement.shimMember
        guard case .function = member.legacy.kind else { return [] }
        let all = Array(member.legacy.parameters.indices)
        let defaulted = all.filter { member.legacy.parameters[$0].defaultValue != nil && member.transactions[$0] == nil }
        var sets = requirement.supplied
        if (1...3).contains(defaulted.count) {
            for mask in 1..<(1 << defaulted.count) {
                let omitted = Set(defaulted.indices.filter { mask & (1 << $0) != 0 }.map { defaulted[$0] })
                sets.insert(all.filter { !omitted.contains($0) })
            }
        }
        return sets.sorted { $0.lexicographicallyPrecedes($1) }.compactMap { supplied in
            guard supplied != all else { return nil }
            let arguments = all.map { index -> String in
                let parameter = member.legacy.parameters[index]
                if member.transactions[index] != nil { return "tx" }
                let value = supplied.contains(index)
                    ? (parameter.isInout ? "&\(parameter.name)" : parameter.name) : parameter.defaultValue ?? parameter.name
                return SwiftText.argument(parameter, value: value)
            }
            let omitted = all.filter { !supplied.contains($0) }.map { "`\(member.legacy.parameters[$0].name)`" }
            let call = SwiftText.callPrefix(isAsync: member.legacy.isAsync, throwing: member.shimThrowsClause != nil)
                + "\(member.legacy.name)(\(arguments.joined(separator: ", ")))"
            return ["    /// `\(member.shimDisplayName)` with the finder's default for \(omitted.joined(separator: ", "))."]
                + member.legacy.attributes.map { "    " + $0 }
                + ["    " + ShimRenderer.signature(member, parameters: supplied, modifier: modifier) + " {", "        \(call)", "    }"]
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

    /// Where the protocol goes: beside the finder's declaration.
    var protocolPath: String {
        let declaration = legacy.declarations.first { !$0.isExtension } ?? legacy.declarations[0]
        let folder = (rootRelative(declaration.file.path) as NSString).deletingLastPathComponent
        return folder.isEmpty ? "\(protocolName).swift" : "\(folder)/\(protocolName).swift"
    }

    /// The protocol and the finder's conformance to it.
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

    func protocolFile() -> GeneratedFile {
        let access = protocolAccess
        let modifier = access.modifier
        // A witness needs the narrower of the protocol's and the type's access.
        let witnessModifier = min(access, legacy.accessLevel, .public).modifier
        // Sendable when the finder says so (a value type's implicit
        // conformance cannot be declared from another file), and for an
        // actor, which always is.
        let isSendable = legacy.kind == .actor
            || legacy.inherited.contains { $0.replacingOccurrences(of: "@unchecked ", with: "") == "Sendable" }
        var lines = ShimRenderer.imports(of: legacy, configuration: configuration, adding: ["TransactionKit"])
            .map { "import \($0)" }
        lines += [
            "",
            "/// What callers use of ``\(legacy.name)``, taking TransactionKit transactions (Good Way).",
            "///",
            "/// Production passes `\(legacy.name)`; unit tests pass `\(GeneratedLayout.protocolMockName(protocol: protocolName))`",
            "/// (`txkit mock --protocol \(protocolName)`). Written by `txkit convert --legacy \(legacy.name)`;",
            "/// maintained by hand from now on.",
            "\(modifier)protocol \(protocolName)\(isSendable ? ": Sendable" : "") {",
        ]
        let requirements = protocolMembers
        for (position, requirement) in requirements.enumerated() {
            if position > 0 { lines.append("") }
            let shimMember = requirement.shimMember
            let documentation = requirement.member.documentation.isEmpty
                ? ["/// See `\(legacy.name).\(requirement.member.name)`."] : requirement.member.documentation
            lines += (documentation + shimMember.decisionDocumentation).map { "    " + $0 }
            lines += requirement.member.attributes.map { "    " + $0 }
            switch requirement.member.kind {
            case .property:
                // A caller sets it: a class's setter does not mutate the reference.
                let accessors = writtenMembers.contains(requirement.member.location) ? "{ get nonmutating set }" : "{ get }"
                lines.append("    var \(requirement.member.name): \(shimMember.resultType ?? "Void") \(accessors)")
            case .function:
                lines.append("    " + ShimRenderer.signature(shimMember, parameters: Array(requirement.member.parameters.indices)))
            }
        }
        lines.append("}")
        let overloads = requirements.flatMap { defaultOverloads($0, modifier: modifier) }
        if !overloads.isEmpty {
            lines += ["", "// The finder's defaults, for the calls its callers make without them.", "extension \(protocolName) {"]
            lines += overloads.joined(separator: [""])
            lines.append("}")
        }
        let forwarded = requirements.filter { $0.converted != nil && $0.member.isStatic && statics == .keep }
        lines += ["", "/// The production ``\(protocolName)``."]
        if forwarded.isEmpty {
            lines.append("extension \(legacy.qualifiedName): \(protocolName) {}")
        } else {
            lines.append("extension \(legacy.qualifiedName): \(protocolName) {")
            for (position, requirement) in forwarded.enumerated() {
                if position > 0 { lines.append("") }
                let shimMember = requirement.shimMember
                let arguments = requirement.member.parameters.enumerated().map { index, parameter in
                    index == requirement.converted?.parameterIndex
                        ? "tx" : SwiftText.argument(parameter, value: (parameter.isInout ? "&" : "") + parameter.name)
                }
                lines += [
                    "    /// Forwards to the static `\(legacy.name).\(requirement.converted!.displayName)`.",
                ] + requirement.member.attributes.map { "    " + $0 } + [
                    "    " + ShimRenderer.signature(
                        shimMember, parameters: Array(requirement.member.parameters.indices), modifier: witnessModifier) + " {",
                    "        " + SwiftText.callPrefix(isAsync: requirement.member.isAsync, throwing: true)
                        + "Self.\(requirement.member.name)(\(arguments.joined(separator: ", ")))",
                    "    }",
                ]
            }
            lines.append("}")
        }
        return GeneratedFile(path: protocolPath, contents: lines.joined(separator: "\n") + "\n")
    }
}
#endif
