#if Txkit
import Foundation

/// The code generator behind `txkit shim` and `txkit mock`: reads the
/// sources once, then produces the files for one consumer/legacy pair or
/// one protocol. It writes nothing itself (see ``GeneratedFileWriter``).
///
/// The pipeline, a folder of this module per stage:
///
/// | stage | folder | in → out |
/// | --- | --- | --- |
/// | configure | `Configuration/` | `txkit.json` → `GeneratorConfiguration` (`init` proposes one) |
/// | read | `Read/` | paths → `SourceSet` (parsed `SourceFile`s) |
/// | index | `Index/` | `SourceSet` → `SourceIndex` (types, members, bodies) |
/// | resolve | `Resolve/` | a consumer's bodies → `ConsumerScan` (its uses of legacy members) |
/// | plan | `Plan/` | consumer + legacy type → `ShimPlan` (members, read or write) |
/// | render | `Render/` | `ShimPlan` → `GeneratedFile`s (shim, wrapper, mock, namespaces) |
/// | rewrite | `Rewrite/` | `ShimPlan` → `ConsumerEdit`s (`shim --apply`) |
/// | convert | `Convert/` | legacy finder → `LegacyConversion` (`convert`) |
/// | write | `Write/` | files and edits → disk, all or nothing (`FileChangeSet`), `--verify` |
/// | report | `Inventory/` | `SourceIndex` → `Inventory` |
public final class Generator {
    package let configuration: GeneratorConfiguration
    package let index: SourceIndex

    /// Reads the sources `txkit.json` names (or `sources`, relative to
    /// `root`).
    public convenience init(root: String, configuration: GeneratorConfiguration, sources: [String]? = nil) throws {
        let absolute = { (path: String) in path.hasPrefix("/") ? path : (root as NSString).appendingPathComponent(path) }
        var paths = (sources ?? configuration.sources).map(absolute)
        // The shims already generated, even outside the sources: their
        // markers list each consumer's pairs, which its namespaces name.
        let shims = absolute(GeneratedLayout(configuration).shimsRoot)
        let standardized = { (path: String) in (path as NSString).standardizingPath }
        if FileManager.default.fileExists(atPath: shims),
           !paths.contains(where: { standardized(shims).hasPrefix(standardized($0) + "/") || standardized($0) == standardized(shims) }) {
            paths.append(shims)
        }
        try self.init(configuration: configuration, sources: SourceSet(paths: paths))
    }

    package init(configuration: GeneratorConfiguration, sources: SourceSet) {
        index = SourceIndex(sources)
        self.configuration = configuration.addingTypealiases(of: index)
    }

    /// The pairs a previous `txkit shim` generated, from the markers of
    /// the shim files in the sources, sorted.
    public func generatedPairs() -> [(consumer: String, legacy: String)] {
        pairs.map { ($0.consumer, $0.legacy) }
    }

    /// ``generatedPairs()``, read from the markers once.
    private lazy var pairs: [(consumer: String, legacy: String)] = {
        var pairs: [(String, String)] = []
        var seen: Set<[String]> = []
        for file in index.sources.files {
            guard case let .shim(consumer, legacy)? = file.generatedBy else { continue }
            if seen.insert([consumer, legacy]).inserted {
                pairs.append((consumer, legacy))
            }
        }
        return pairs.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }()

    /// The legacy types generated for each consumer, from ``generatedPairs()``.
    private lazy var legaciesByConsumer: [String: [String]] = Dictionary(grouping: pairs, by: \.consumer)
        .mapValues { $0.map(\.legacy) }

    /// The shim, wrapper and mock for `consumer`'s use of `legacy`, and
    /// the consumer's `Shims`/`Wrappers` and `Mocks` namespaces (which
    /// list every legacy type generated for the consumer so far).
    package func shim(consumer consumerName: String, legacy legacyName: String) throws -> [GeneratedFile] {
        try shim(plan(consumer: consumerName, legacy: legacyName))
    }

    /// What `consumer` needs from `legacy` (the plan stage): the members it
    /// uses and the transaction each takes. ``shim(_:alongside:)`` renders
    /// it and ``apply(_:)`` rewrites the consumer from the same plan.
    package func plan(consumer consumerName: String, legacy legacyName: String) throws -> ShimPlan {
        try ShimPlan(
            consumer: index.type(named: consumerName), legacy: index.type(named: legacyName),
            configuration: configuration)
    }

    /// The files of several pairs generated together (`txkit shim --all`):
    /// each consumer's namespaces list all its pairs, those generated
    /// before and those in `pairs`. A file two pairs share is listed once.
    public func shim(pairs: [(consumer: String, legacy: String)]) throws -> [GeneratedFile] {
        var legaciesByConsumer: [String: [String]] = [:]
        for pair in pairs {
            legaciesByConsumer[pair.consumer, default: []].append(pair.legacy)
        }
        var files: [GeneratedFile] = []
        var seen: Set<String> = []
        for pair in pairs {
            for file in try shim(
                plan(consumer: pair.consumer, legacy: pair.legacy), alongside: legaciesByConsumer[pair.consumer] ?? [])
            where seen.insert(file.path).inserted {
                files.append(file)
            }
        }
        return files
    }

    /// The render stage: the shim, wrapper and mock of `plan`, and its
    /// consumer's namespaces, which list `alongside` too.
    package func shim(_ plan: ShimPlan, alongside: [String] = []) -> [GeneratedFile] {
        var legacies = legaciesByConsumer[plan.consumer.name] ?? []
        for legacy in alongside + [plan.legacy.name] where !legacies.contains(legacy) {
            legacies.append(legacy)
        }
        return ShimFilesRenderer(plan: plan, configuration: configuration, legacies: legacies.sorted()).files()
    }
}
#endif
