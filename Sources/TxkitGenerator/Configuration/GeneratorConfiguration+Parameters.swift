#if Txkit
extension GeneratorConfiguration {
    /// Whether a parameter of type `type` takes a legacy transaction
    /// (``legacyTransaction(forParameterType:)`` finds one).
    var isLegacyTransaction: (String) -> Bool {
        { [self] type in legacyTransaction(forParameterType: type) != nil }
    }

    /// The legacy transaction a parameter of type `type` takes, in any
    /// form a legacy signature writes it: `Database`, `Database?` (often
    /// `= nil`), `Database!`, or qualified by its module (`GRDB.Database`).
    func legacyTransaction(forParameterType type: String) -> LegacyTransaction? {
        if let exact = legacyTransaction(named: type) { return exact }
        let core = SourceIndex.coreTypeName(type)
        if let found = legacyTransaction(named: core) { return found }
        guard let dot = core.lastIndex(of: ".") else { return nil }
        let unqualified = String(core[core.index(after: dot)...])
        return legacyTransactions.first { $0.type == unqualified }
    }

    /// The configuration with one more legacy transaction per type alias
    /// of the sources that names one (`typealias ReadConnection = Database`
    /// in a finder, or at the top level): its members take the legacy
    /// transaction under that name, translated and bridged as the type it
    /// aliases.
    func addingTypealiases(of index: SourceIndex) -> GeneratorConfiguration {
        var configuration = self
        for name in index.typealiases.keys.sorted() where legacyTransaction(forParameterType: name) == nil {
            let resolved = index.resolvedTypeName(name)
            guard var entry = legacyTransaction(forParameterType: resolved) else { continue }
            entry.type = name
            configuration.legacyTransactions.append(entry)
        }
        return configuration
    }
}
#endif
