#if Txkit
/// Writes the Swift of a consumer's shim protocol and its wrapper.
struct ShimRenderer {
    let plan: ShimPlan
    let configuration: GeneratorConfiguration
    let marker: String

    private var consumer: String { plan.consumer.name }
    private var legacy: String { plan.legacy.name }
    private var shimName: String { GeneratedLayout.shimName(consumer: consumer, legacy: legacy) }
    private var wrapperName: String { GeneratedLayout.wrapperName(consumer: consumer, legacy: legacy) }
    private var mockReference: String { GeneratedLayout.mockReference(consumer: consumer, legacy: legacy) }
    private var access: AccessLevel { plan.accessLevel(configuration: configuration) }
    private var modifier: String { access.modifier }

    /// The modules the legacy type's files import that generated code
    /// needs too (Foundation for `Date`…), without the database library.
    static func imports(of legacy: IndexedType, configuration: GeneratorConfiguration, adding extra: [String]) -> [String] {
        let kept = legacy.imports.filter { !configuration.excludedImports.contains($0) }
        var all: [String] = []
        for module in kept + extra where !all.contains(module) {
            all.append(module)
        }
        return all.sorted()
    }

    // MARK: Shim

    func shim() -> String {
        var lines = [marker, ""]
        lines += Self.imports(of: plan.legacy, configuration: configuration, adding: ["TransactionKit"] + configuration.shimImports).map { "import \($0)" }
        lines += [
            "",
            "/// What ``\(consumer)`` uses of `\(legacy)`, and only that, taking TransactionKit",
            "/// transactions (Shortcut Way). Call sites read `\(GeneratedLayout.shimReference(consumer: consumer, legacy: legacy))`.",
            "///",
            "/// Production passes ``\(wrapperName)``; unit tests pass",
            "/// `\(mockReference)`.",
            // Sendable only when the legacy type is, or the wrapper makes
            // an instance per call (see ShimPlan.isShimSendable).
            "\(modifier)protocol \(shimName)\(plan.isShimSendable ? ": Sendable" : "") {",
        ]
        var first = true
        for member in plan.members {
            if !first { lines.append("") }
            first = false
            let documentation = member.legacy.documentation.isEmpty
                ? ["/// `\(legacy).\(member.legacy.displayName)`, as ``\(consumer)`` uses it."]
                : member.legacy.documentation
            lines += (documentation + member.decisionDocumentation).map { "    " + $0 }
            lines += member.legacy.attributes.map { "    " + $0 }
            lines.append("    " + requirement(member))
        }
        lines.append("}")
        let overloads = plan.members.flatMap(defaultOverloads)
        if !overloads.isEmpty {
            lines += ["", "// The legacy defaults, for the calls \(consumer) makes without them.", "extension \(shimName) {"]
            lines += overloads.joined(separator: [""])
            lines.append("}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The requirement: the member's declaration with transactions
    /// replaced, statics made instance members, no default values.
    private func requirement(_ member: ShimMember) -> String {
        switch member.legacy.kind {
        case .property:
            let accessors = member.isWritten ? "{ get nonmutating set }" : member.legacy.isAsync ? "{ get async }" : "{ get }"
            return "var \(member.legacy.name): \(member.resultType ?? "Void") \(accessors)"
        case .function:
            return Self.signature(member, parameters: Array(member.legacy.parameters.indices))
        }
    }

    /// `func name<T>(params) async throws -> R where …` over some parameters.
    static func signature(_ member: ShimMember, parameters: [Int], modifier: String = "") -> String {
        let declared = parameters.map { index -> String in
            let parameter = member.legacy.parameters[index]
            if let transaction = member.transactions[index], member.isBridged {
                return "_ tx: \(transaction)"
            }
            return SwiftText.parameterDeclaration(parameter)
        }
        var text = "\(modifier)func \(member.legacy.name)\(member.legacy.genericParameters)(\(declared.joined(separator: ", ")))"
        text += SwiftText.effects(isAsync: member.legacy.isAsync, throwsClause: member.shimThrowsClause)
        if let result = member.resultType { text += " -> \(result)" }
        if !member.legacy.whereClause.isEmpty { text += " \(member.legacy.whereClause)" }
        return text
    }

    /// One extension method per parameter set the consumer calls that
    /// leaves out defaulted parameters; it calls the requirement with the
    /// legacy default values.
    private func defaultOverloads(_ member: ShimMember) -> [[String]] {
        let all = Array(member.legacy.parameters.indices)
        return member.suppliedSets.sorted { $0.lexicographicallyPrecedes($1) }.compactMap { supplied in
            guard supplied != all, case .function = member.legacy.kind else { return nil }
            let arguments = all.map { index -> String in
                let parameter = member.legacy.parameters[index]
                if member.transactions[index] != nil { return "tx" }
                let value = supplied.contains(index)
                    ? (parameter.isInout ? "&\(parameter.name)" : parameter.name)
                    : parameter.defaultValue!
                return SwiftText.argument(parameter, value: value)
            }
            let omitted = all.filter { !supplied.contains($0) }.map { "`\(member.legacy.parameters[$0].name)`" }
            let call = SwiftText.callPrefix(isAsync: member.legacy.isAsync, throwing: member.shimThrowsClause != nil)
                + "\(member.legacy.name)(\(arguments.joined(separator: ", ")))"
            return [
                "    /// `\(member.shimDisplayName)` with the legacy default for \(omitted.joined(separator: ", ")).",
            ] + member.legacy.attributes.map { "    " + $0 } + [
                "    " + Self.signature(member, parameters: supplied, modifier: modifier) + " {",
                "        \(call)",
                "    }",
            ]
        }
    }

    // MARK: Wrapper

    func wrapper() -> String {
        var lines = [marker, ""]
        lines += Self.imports(
            of: plan.legacy, configuration: configuration, adding: ["TransactionKit"] + configuration.shimImports + configuration.wrapperImports
        ).map { "import \($0)" }
        lines += [
            "",
            "/// Forwards ``\(shimName)`` to `\(legacy)`, building each legacy transaction",
            "/// with `\(bridgeDescription)` (Shortcut Way).",
            "///",
            "/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse: unit",
            "///   tests pass `\(mockReference)` instead.",
            "\(modifier)struct \(wrapperName): \(shimName) {",
        ]
        let hasInstanceMembers = plan.members.contains { !$0.legacy.isStatic }
        if hasInstanceMembers, plan.makesLegacyPerCall {
            lines.removeLast()
            lines += perCallHeader()
        } else if hasInstanceMembers {
            let initAccess = min(access, plan.legacy.accessLevel).modifier
            lines.append("    private let wrapped: \(legacy)")
            lines.append("")
            if plan.legacy.hasArgumentlessInit {
                lines += [
                    "    /// Creates the wrapper around a new `\(legacy)`.",
                    "    \(modifier)init() {",
                    "        wrapped = \(legacy)()",
                    "    }",
                    "",
                ]
            }
            lines += [
                "    /// Creates the wrapper around `wrapped`.",
                "    \(initAccess)init(_ wrapped: \(legacy)) {",
                "        self.wrapped = wrapped",
                "    }",
            ]
        } else {
            lines += [
                "    /// Creates the wrapper (`\(legacy)`'s members used here are static).",
                "    \(modifier)init() {}",
            ]
        }
        for member in plan.members {
            lines.append("")
            lines += forwarding(member)
        }
        lines.append("}")
        if hasInstanceMembers, plan.holdsLegacyWeakly {
            lines += [""] + weakReference()
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The wrapper's ``ShimPlan/weakReferenceTypeName`` type, for a
    /// consumer that held the legacy instance in a `weak` property: it
    /// keeps a wrapper's instance weakly, so the property reads `nil` once
    /// the instance is released, as before; any other shim (a test's mock)
    /// it keeps strongly.
    private func weakReference() -> [String] {
        let name = ShimPlan.weakReferenceTypeName
        return [
            "extension \(wrapperName) {",
            "    /// Holds a ``\(shimName)`` as `\(consumer)` held `\(legacy)` in a `weak`",
            "    /// property: a wrapper's `\(legacy)` weakly (``shim`` is `nil` once it is",
            "    /// released), any other shim (a test's mock) strongly.",
            "    \(modifier)struct \(name) {",
            "        private weak var instance: \(legacy)?",
            "        private var other: (any \(shimName))?",
            "",
            "        /// Holds `shim`, or nothing.",
            "        \(modifier)init(_ shim: (any \(shimName))? = nil) {",
            "            if let wrapper = shim as? \(wrapperName) {",
            "                instance = wrapper.wrapped",
            "            } else {",
            "                other = shim",
            "            }",
            "        }",
            "",
            "        /// The shim held: the wrapper of the instance while it lives, or the other shim.",
            "        \(modifier)var shim: (any \(shimName))? {",
            "            other ?? instance.map { \(wrapperName)($0) }",
            "        }",
            "    }",
            "}",
        ]
    }

    /// The wrapper's declaration and initializers when it makes the legacy
    /// instance for each call (``ShimPlan/makesLegacyPerCall``).
    private func perCallHeader() -> [String] {
        let initAccess = min(access, plan.legacy.accessLevel).modifier
        var lines = [
            "///",
            "/// `\(consumer)` is `Sendable` and `\(legacy)` is not: this wrapper holds no",
            "/// `\(legacy)`, only a `@Sendable` closure that makes one for each call, as",
            "/// `\(consumer)` made one where it used it. That is what makes it `Sendable`",
            "/// without `@unchecked`: no `\(legacy)` is shared between calls unless the",
            "/// closure returns a shared one, as the consumer's own expression did.",
            "\(modifier)struct \(wrapperName): \(shimName) {",
            "    private let make: @Sendable () -> \(legacy)",
            "",
        ]
        if plan.legacy.hasArgumentlessInit {
            lines += [
                "    /// Creates the wrapper, which makes a new `\(legacy)` for each call.",
                "    \(modifier)init() {",
                "        make = { \(legacy)() }",
                "    }",
                "",
            ]
        }
        lines += [
            "    /// Creates the wrapper, which calls `make` for each call (`{ \(legacy).shared() }`).",
            "    \(initAccess)init(making make: @escaping @Sendable () -> \(legacy)) {",
            "        self.make = make",
            "    }",
        ]
        return lines
    }

    private var bridgeDescription: String {
        configuration.legacyTransactions.first.map { $0.bridge.replacingBytes(of: "$tx", with: "tx") }
            ?? "SQLiteDB.shimOnlyBridge(tx)"
    }

    private func forwarding(_ member: ShimMember) -> [String] {
        let target = member.legacy.isStatic ? legacy : plan.makesLegacyPerCall ? "make()" : "wrapped"
        var lines = ["    /// Forwards to `\(legacy).\(member.legacy.displayName)`."]
        lines += member.legacy.attributes.map { "    " + $0 }
        switch member.legacy.kind {
        case .property:
            let type = member.resultType ?? "Void"
            if member.isWritten {
                lines += [
                    "    \(modifier)var \(member.legacy.name): \(type) {",
                    "        get { \(target).\(member.legacy.name) }",
                    "        nonmutating set { \(target).\(member.legacy.name) = newValue }",
                    "    }",
                ]
            } else if member.legacy.isAsync {
                lines.append("    \(modifier)var \(member.legacy.name): \(type) { get async { await \(target).\(member.legacy.name) } }")
            } else {
                lines.append("    \(modifier)var \(member.legacy.name): \(type) { \(target).\(member.legacy.name) }")
            }
        case .function:
            let arguments = member.legacy.parameters.enumerated().map { index, parameter -> String in
                if member.transactions[index] != nil {
                    let bridge = configuration.legacyTransaction(forParameterType: parameter.type)!.bridge
                    return SwiftText.argument(parameter, value: bridge.replacingBytes(of: "$tx", with: "tx"))
                }
                return SwiftText.argument(parameter, value: parameter.isInout ? "&\(parameter.name)" : parameter.name)
            }
            let call = SwiftText.callPrefix(isAsync: member.legacy.isAsync, throwing: member.legacy.throwsClause != nil)
                + "\(target).\(member.legacy.name)(\(arguments.joined(separator: ", ")))"
            lines += [
                "    " + Self.signature(member, parameters: Array(member.legacy.parameters.indices), modifier: modifier) + " {",
                "        \(call)",
                "    }",
            ]
        }
        return lines
    }
}
#endif
