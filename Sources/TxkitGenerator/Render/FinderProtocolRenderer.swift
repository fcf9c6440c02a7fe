#if Txkit
/// Writes the protocol `txkit convert` declares for a finder (Good Way):
/// the requirements its callers use, taking TransactionKit transactions,
/// the finder's defaults as extension methods, and the finder's
/// conformance, with forwarders for the static members it keeps static.
struct FinderProtocolRenderer {
    /// One requirement.
    struct Requirement {
        /// The member as the protocol declares it.
        var shimMember: ShimMember
        /// The parameter sets calls through a shim supplied.
        var supplied: Set<[Int]>
        /// For a member that took a legacy transaction: that parameter's
        /// index and the member's name after the conversion.
        var converted: (parameterIndex: Int, displayName: String)?
        /// For a property: whether a caller sets it.
        var isSet: Bool

        /// The finder's member.
        var member: IndexedMember { shimMember.legacy }
    }

    let legacy: IndexedType
    let protocolName: String
    let requirements: [Requirement]
    let access: AccessLevel
    /// Whether static members stay static (`--statics keep`), so that the
    /// conformance forwards to them.
    let keepsStatics: Bool
    let configuration: GeneratorConfiguration

    func file(at path: String) -> GeneratedFile {
        let modifier = access.modifier
        // A witness needs the narrower of the protocol's and the type's access.
        let witnessModifier = min(access, legacy.accessLevel, .public).modifier
        // Sendable when the finder says so (a value type's implicit
        // conformance cannot be declared from another file), and for an
        // actor, which always is.
        let isSendable = legacy.kind == .actor
            || legacy.inherited.contains { $0.withoutUncheckedMark == "Sendable" }
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
                let accessors = requirement.isSet ? "{ get nonmutating set }" : "{ get }"
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
        let forwarded = requirements.filter { requirement in
            guard requirement.member.isStatic && keepsStatics else { return false }
            if case .property = requirement.member.kind { return true }
            return requirement.converted != nil
        }
        lines += ["", "/// The production ``\(protocolName)``."]
        if forwarded.isEmpty {
            lines.append("extension \(legacy.qualifiedName): \(protocolName) {}")
        } else {
            lines.append("extension \(legacy.qualifiedName): \(protocolName) {")
            for (position, requirement) in forwarded.enumerated() {
                if position > 0 { lines.append("") }
                let shimMember = requirement.shimMember
                if case .property = requirement.member.kind {
                    let name = requirement.member.name
                    let type = shimMember.resultType ?? "Void"
                    lines.append("    /// Forwards to the static `\(legacy.name).\(name)`.")
                    lines.append(requirement.isSet
                        ? "    \(witnessModifier)var \(name): \(type) {\n        get { Self.\(name) }\n        nonmutating set { Self.\(name) = newValue }\n    }"
                        : "    \(witnessModifier)var \(name): \(type) { Self.\(name) }")
                    continue
                }
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
        return GeneratedFile(path: path, contents: lines.joined(separator: "\n") + "\n")
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
}
#endif
