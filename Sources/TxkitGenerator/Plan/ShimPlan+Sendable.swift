#if Txkit
extension ShimPlan {
    /// Refuses a member whose parameters or result name a class of the
    /// tree that is not `Sendable`: the shim's mock holds each call's
    /// arguments and stub result in a `MockMethod`, which requires
    /// `Sendable` values, so the generated mock would not compile.
    /// `--apply` checks it before it writes anything; `shim` alone still
    /// writes the files, for a person to finish.
    func requireSendableValues(configuration: GeneratorConfiguration) throws {
        guard let index = consumer.index else { return }
        for member in members {
            try Self.requireSendableValues(of: member.legacy, in: legacy, index: index, configuration: configuration)
        }
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

    static func requireSendableValues(
        of member: IndexedMember, in legacy: IndexedType, index: SourceIndex, configuration: GeneratorConfiguration
    ) throws {
        let parameters = member.parameters.filter { configuration.legacyTransaction(forParameterType: $0.type) == nil }
        let types = parameters.map(\.type) + [member.resultType].compactMap { $0 }
        for type in types {
            for name in identifiers(in: type) {
                guard let found = index.types[name], !isSendable(found, index: index) else { continue }
                throw GeneratorError.unsupportedUse(
                    "\(legacy.name).\(member.displayName) passes a \(name), a class that is not Sendable: the "
                        + "shim's mock cannot hold it. Declare \(name) Sendable (or @unchecked Sendable if it "
                        + "guards its state), or convert \(legacy.name) to the Good Way",
                    location: member.location)
            }
        }
    }

    /// Whether instances of a type of the tree can be held by a mock: a
    /// class only when it or a superclass in the tree says `Sendable`.
    static func isSendable(_ type: IndexedType, index: SourceIndex, depth: Int = 0) -> Bool {
        guard type.kind == .class, depth < 16 else { return true }
        for inherited in type.inherited {
            let bare = inherited.replacingOccurrences(of: "@unchecked", with: "")
                .trimmingCharacters(in: .whitespaces)
            if bare == "Sendable" { return true }
            if let superclass = index.types[bare], superclass.kind == .class,
               isSendable(superclass, index: index, depth: depth + 1) {
                return true
            }
        }
        return false
    }

    static func identifiers(in type: String) -> [String] {
        type.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init)
    }
}
#endif
