#if Txkit
import Foundation

/// The scans of one run's consumers, each made once for all the legacy
/// types asked of it: `txkit inventory` scans a consumer for every legacy
/// type of the sources, and the shims of its pairs (`shim --all`,
/// `--check`, `migrate`) read that scan instead of walking the consumer
/// again per pair.
///
/// A scan for several legacy types, restricted to one of them, is the scan
/// for that type alone (``ConsumerScan/restricted(to:)``), so what a pair
/// is planned from does not depend on what was scanned before it.
final class ConsumerScanCache: @unchecked Sendable {
    /// A consumer, and the legacy transactions its scan recognized (a
    /// configuration's, which decide what a legacy member is).
    private struct Key: Hashable {
        var consumer: String
        var transactions: [String]
    }

    private let lock = NSLock()
    private var scans: [Key: ConsumerScan] = [:]

    /// The scan of `consumer` for `legacy` alone, from a scan kept for
    /// several types when there is one, else made now (and not kept).
    func scan(
        of consumer: IndexedType, for legacy: String, index: SourceIndex, configuration: GeneratorConfiguration
    ) -> ConsumerScan {
        let key = Self.key(consumer, configuration)
        if let kept = lock.withLock({ scans[key] }), kept.legacyTypes.contains(legacy) {
            return kept.restricted(to: legacy)
        }
        return ConsumerScan(
            consumer: consumer, legacyTypes: [legacy], index: index,
            isLegacyTransaction: configuration.isLegacyTransaction)
    }

    /// Scans `consumer` for all of `legacyTypes` at once and keeps the
    /// scan, unless one kept already covers them.
    @discardableResult
    func prepare(
        _ consumer: IndexedType, for legacyTypes: Set<String>, index: SourceIndex, configuration: GeneratorConfiguration
    ) -> ConsumerScan {
        let key = Self.key(consumer, configuration)
        if let kept = lock.withLock({ scans[key] }), legacyTypes.isSubset(of: kept.legacyTypes) {
            return kept
        }
        let scan = ConsumerScan(
            consumer: consumer, legacyTypes: legacyTypes, index: index,
            isLegacyTransaction: configuration.isLegacyTransaction)
        lock.withLock { scans[key] = scan }
        return scan
    }

    private static func key(_ consumer: IndexedType, _ configuration: GeneratorConfiguration) -> Key {
        Key(consumer: consumer.qualifiedName, transactions: configuration.legacyTransactions.map(\.type))
    }
}
#endif
