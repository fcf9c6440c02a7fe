#if Txkit
extension SourceIndex {
    /// The narrowest access level of the types of the sources that written
    /// types name (`[BudgetWithCategory]` → `BudgetWithCategory`'s), and of
    /// the types enclosing them; `public` when they name none. A
    /// declaration that names them can be no wider.
    func narrowestAccess(of writtenTypes: [String]) -> AccessLevel {
        var narrowest = AccessLevel.open
        for written in writtenTypes {
            for name in TypeText.identifiers(in: written) {
                guard let type = types[name] else { continue }
                narrowest = min(narrowest, type.accessLevel)
                var outer = type.qualifiedName.split(separator: ".").dropLast()
                while !outer.isEmpty {
                    if let enclosing = types[outer.joined(separator: ".")] { narrowest = min(narrowest, enclosing.accessLevel) }
                    outer = outer.dropLast()
                }
            }
        }
        return narrowest
    }
}

extension ShimPlan {
    /// The access level of the pair's shim and wrapper: `txkit.json`'s,
    /// narrowed to the consumer's and to the types its members name (a
    /// public requirement cannot return an internal type).
    func accessLevel(configuration: GeneratorConfiguration) -> AccessLevel {
        guard let index = consumer.index else { return min(configuration.accessLevel, consumer.accessLevel) }
        // The legacy transaction parameters are not in the shim (it takes
        // a TransactionKit transaction there).
        let named = members.flatMap { member in
            member.legacy.parameters.enumerated().filter { member.transactions[$0.offset] == nil }.map(\.element.type)
                + [member.legacy.resultType].compactMap { $0 }
        }
        return min(configuration.accessLevel, consumer.accessLevel, index.narrowestAccess(of: named))
    }
}
#endif
