#if Txkit
extension GeneratorConfiguration {
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
}
#endif
