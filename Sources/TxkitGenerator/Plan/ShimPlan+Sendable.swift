#if Txkit
import SwiftSyntax

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
    /// and the compiler keeps checking every use. The one exception is a
    /// wrapper that holds no instance at all (``makesLegacyPerCall``).
    var isLegacySendable: Bool {
        // A wrapper of static members holds no instance.
        guard members.contains(where: { !$0.legacy.isStatic }), let index = legacy.index ?? consumer.index else {
            return true
        }
        return Self.isSendable(legacy, index: index)
    }

    /// Whether the shim protocol refines `Sendable`: when the legacy type
    /// is `Sendable` (``isLegacySendable``), or when the wrapper makes the
    /// legacy instance for each call (``makesLegacyPerCall``).
    var isShimSendable: Bool { isLegacySendable || makesLegacyPerCall }

    /// Whether the wrapper holds no legacy instance but makes one for each
    /// call, with a `@Sendable` closure (`{ Legacy() }`, `{ Legacy.shared() }`):
    /// the consumer says `Sendable` (checked, not `@unchecked`), the legacy
    /// class does not, and the consumer holds no instance of it, since it
    /// could not: it made one where it used it (a temporary `Legacy()`, a
    /// local, `Legacy.shared()`), or, once `--apply` ran, it holds the shim
    /// in a property the compiler checks (not `nonisolated(unsafe)`).
    ///
    /// The consumer stays `Sendable` without any unchecked claim: the
    /// wrapper is `Sendable` because all it stores is a `@Sendable`
    /// closure, and each call gets the instance the consumer's own
    /// expression gave it, so no instance is shared between threads that
    /// the original code did not share. A consumer that holds a legacy
    /// instance in a property it asserts safe itself (`@unchecked Sendable`,
    /// `nonisolated(unsafe)`) keeps holding it, through the usual wrapper.
    var makesLegacyPerCall: Bool {
        guard !isLegacySendable, consumer.inherited.contains("Sendable") else { return false }
        let stored = ConsumerScanner.storedProperties(of: consumer.declarations, consumer: consumer.name, legacy: legacy.name)
        if stored.values.contains(true) { return false }
        if !stored.isEmpty {
            return !Self.hasUncheckedProperty(named: Set(stored.keys), in: consumer)
        }
        let throughLegacy = uses.filter(\.isThroughLegacyType)
        return throughLegacy.contains { use in
            switch use.base {
            case .expression: true
            case let .variable(name): use.node.enclosingFunctionParameter(named: name) == nil
            case .type, .storedProperty: false
            }
        } && !throughLegacy.contains { if case .storedProperty = $0.base { true } else { false } }
    }

    /// Whether one of the stored properties `names` of `type` is
    /// `nonisolated(unsafe)`.
    static func hasUncheckedProperty(named names: Set<String>, in type: IndexedType) -> Bool {
        type.declarations.contains { declaration in
            declaration.memberBlock.members.contains { item in
                guard let variable = item.decl.as(VariableDeclSyntax.self),
                      variable.modifiers.contains(where: { $0.trimmedText.hasPrefix("nonisolated(unsafe") })
                else { return false }
                return variable.bindings.contains {
                    $0.pattern.as(IdentifierPatternSyntax.self).map { names.contains($0.identifier.text) } ?? false
                }
            }
        }
    }

    /// Whether instances of a type of the tree can be held by a mock: a
    /// public struct or enum only when it says `Sendable` (Swift infers it
    /// for the others); a class only when it or a superclass in the tree
    /// says `Sendable`; a
    /// protocol (held as `any P`) only when it or a protocol it refines in
    /// the tree says `Sendable` (a wrapper of `any Schema` in a `Sendable`
    /// shim did not compile: firefox-ios's Storage).
    static func isSendable(_ type: IndexedType, index: SourceIndex, depth: Int = 0) -> Bool {
        // Swift infers `Sendable` for structs and enums that are not public,
        // a struct only when what it stores is; a public one is `Sendable`
        // only when it says so.
        if type.kind == .struct || type.kind == .enum {
            let says = type.inherited.contains { $0.withoutUncheckedMark == "Sendable" }
            if says || type.accessLevel.isPublic { return says }
            guard type.kind == .struct, depth < 16 else { return true }
            return storedPropertyTypes(of: type).allSatisfy { written in
                valueTypeNames(in: written).allSatisfy { name in
                    index.types[name].map { $0.name == type.name || isSendable($0, index: index, depth: depth + 1) } ?? true
                }
            }
        }
        guard type.kind == .class || type.kind == .protocol, depth < 16 else { return true }
        for inherited in type.inherited {
            let bare = inherited.withoutUncheckedMark
            // `Error` and `Actor` refine `Sendable`.
            if bare == "Sendable" || type.kind == .protocol && ["Error", "Actor"].contains(bare) { return true }
            if let superclass = index.types[bare], superclass.kind == type.kind,
               isSendable(superclass, index: index, depth: depth + 1) {
                return true
            }
        }
        return false
    }

    /// The written types of a struct's stored instance properties (those
    /// without a written type left out).
    static func storedPropertyTypes(of type: IndexedType) -> [String] {
        type.declarations.filter { !$0.isExtension }.flatMap { declaration in
            declaration.memberBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }
                .filter { !$0.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" } }
                .flatMap(\.bindings)
                .filter { $0.accessorBlock == nil }
                .compactMap { $0.typeAnnotation?.type.trimmedDescription }
        }
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
