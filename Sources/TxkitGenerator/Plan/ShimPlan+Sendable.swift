#if Txkit
extension ShimPlan {
    /// The classes of the tree that are not `Sendable` and that members of
    /// the plan pass or return (legacy transactions aside): the mock keeps
    /// such a member's calls in an `IsolatedMockMethod`, in the test's
    /// isolation, where a `MockMethod` would need them `Sendable`. A name
    /// that only qualifies a nested type (`Legacy.Entry`) is not one.
    func nonSendableValueTypes(configuration: GeneratorConfiguration) -> Set<String> {
        guard let index = consumer.index else { return [] }
        var found: Set<String> = []
        for member in members {
            let parameters = member.legacy.parameters.filter { configuration.legacyTransaction(forParameterType: $0.type) == nil }
            for type in parameters.map(\.type) + [member.legacy.resultType].compactMap({ $0 }) {
                for name in Self.valueTypeNames(in: type) {
                    let declared = index.types[name] ?? name.split(separator: ".").last.flatMap { index.types[String($0)] }
                    if let declared, !Self.isSendable(declared, index: index) { found.insert(name) }
                }
            }
        }
        return found
    }

    /// Whether the shim protocol (and so its wrapper) is `Sendable`: when
    /// the wrapper holds no instance (static members only) or the legacy
    /// type is `Sendable` (a class only when it or a superclass in the
    /// tree says `Sendable`; structs and enums are taken as `Sendable`).
    ///
    /// A wrapper holds the legacy instance, so a `Sendable` wrapper of a
    /// non-`Sendable` class would not compile, and `@unchecked Sendable`
    /// would claim a thread safety the legacy class never promised (two
    /// pool reads could run its members at once). The shim of a
    /// non-`Sendable` legacy type is therefore not `Sendable` either: the
    /// consumer holds it wherever it held the legacy instance (a consumer
    /// that is `Sendable` could not hold that instance before either),
    /// and the compiler keeps checking every use.
    var isLegacySendable: Bool {
        // A wrapper of static members holds no instance.
        guard members.contains(where: { !$0.legacy.isStatic }), let index = legacy.index ?? consumer.index else {
            return true
        }
        return Self.isSendable(legacy, index: index)
    }

    /// Whether instances of a type of the tree can be held by a mock: a
    /// class only when it or a superclass in the tree says `Sendable`; a
    /// protocol (held as `any P`) only when it or a protocol it refines in
    /// the tree says `Sendable` (a wrapper of `any Schema` in a `Sendable`
    /// shim did not compile: firefox-ios's Storage).
    static func isSendable(_ type: IndexedType, index: SourceIndex, depth: Int = 0) -> Bool {
        guard type.kind == .class || type.kind == .protocol, depth < 16 else { return true }
        for inherited in type.inherited {
            let bare = inherited.replacingOccurrences(of: "@unchecked", with: "")
                .trimmingCharacters(in: .whitespaces)
            // `Error` and `Actor` refine `Sendable`.
            if bare == "Sendable" || type.kind == .protocol && ["Error", "Actor"].contains(bare) { return true }
            if let superclass = index.types[bare], superclass.kind == type.kind,
               isSendable(superclass, index: index, depth: depth + 1) {
                return true
            }
        }
        return false
    }

    /// The names of the types a type spells, nested ones qualified
    /// (`[Legacy.Entry]` names `Legacy.Entry`, not `Legacy`).
    static func valueTypeNames(in type: String) -> [String] {
        var names: [String] = []
        var current = ""
        for character in type + " " {
            if character.isLetter || character.isNumber || character == "_" || character == "." && !current.isEmpty {
                current.append(character)
                continue
            }
            if !current.isEmpty { names.append(current.hasSuffix(".") ? String(current.dropLast()) : current) }
            current = ""
        }
        return names
    }
}
#endif
