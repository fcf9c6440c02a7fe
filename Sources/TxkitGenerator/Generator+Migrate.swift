#if Txkit
extension Generator {
    /// `txkit migrate`: the files and edits that take `consumer` all the
    /// way to the abstractions (see ``ConsumerMigration``).
    ///
    /// - Throws: ``MigrationRefused`` with every place that stops it, or
    ///   ``GeneratorError`` when the consumer is not in the sources;
    ///   nothing is planned then.
    package func migrate(consumer: String) throws -> (files: [GeneratedFile], edits: [ConsumerEdit], summary: MigrationSummary) {
        let migration = try ConsumerMigration(consumer: consumer, generator: self)
        let summary = MigrationSummary(
            consumer: consumer, requirements: migration.requirements.map(\.displayName), pairs: migration.pairs,
            isAlreadyMigrated: migration.isAlreadyMigrated)
        return (migration.files, migration.edits, summary)
    }

    /// The legacy types of `consumer`'s shims: its pairs, its `Database`
    /// shim when `txkit migrate` wrote one, and `extra`, sorted.
    func legacies(of consumer: String, adding extra: [String]) -> [String] {
        var all = legaciesByConsumer[consumer] ?? []
        for legacy in extra where !all.contains(legacy) {
            all.append(legacy)
        }
        return all.sorted()
    }
}

/// What `txkit migrate` did to one consumer, for its report.
package struct MigrationSummary: Sendable {
    package var consumer: String
    /// The `Database` shim's requirements, `name(a:_:)`.
    package var requirements: [String]
    /// The legacy types whose pair shims it uses.
    package var pairs: [String]
    /// It consumed only the abstractions already: nothing was planned.
    package var isAlreadyMigrated = false
}
#endif
