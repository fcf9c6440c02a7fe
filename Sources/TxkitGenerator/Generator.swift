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
        let shims = absolute(String(configuration.shimsFolder.prefix { $0 != "$" }))
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

    /// The legacy types generated for each consumer, from ``generatedPairs()``,
    /// and `Database` for a consumer whose `Database` shim `txkit migrate` wrote.
    lazy var legaciesByConsumer: [String: [String]] = {
        var legacies = Dictionary(grouping: pairs, by: \.consumer).mapValues { $0.map(\.legacy) }
        for file in index.sources.files {
            guard case let .migrated(consumer)? = file.generatedBy,
                  (file.path as NSString).lastPathComponent == "\(consumer)_DatabaseShim.swift"
            else { continue }
            if !(legacies[consumer] ?? []).contains("Database") { legacies[consumer, default: []].append("Database") }
        }
        return legacies
    }()

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
        let consumer = plan.consumer, legacy = plan.legacy
        let consumerName = consumer.name, legacyName = legacy.name
        let marker = GeneratedFileMarker.shim(consumer: consumerName, legacy: legacyName).line
        let renderer = ShimRenderer(plan: plan, configuration: configuration, marker: marker)

        let shimsFolder = configuration.shimsFolder.replacingOccurrences(of: "$consumer", with: consumerName)
        let mocksFolder = configuration.mocksFolder.replacingOccurrences(of: "$consumer", with: consumerName)
        let mockName = "\(consumerName)_\(legacyName)Mock"
        let mock = MockRenderer(
            mockName: mockName,
            protocolName: renderer.shimName,
            members: plan.members,
            imports: ShimRenderer.imports(
                of: legacy, configuration: configuration,
                adding: configuration.mockImports + ["TransactionKit", "TransactionKitTesting"]),
            documentation: "`\(consumerName).Mocks.\(legacyName)`: a mock of ``\(renderer.shimName)``, "
                + "one `MockMethod` per member.",
            marker: marker,
            nonSendableTypes: plan.nonSendableValueTypes(configuration: configuration),
            isProtocolSendable: plan.isShimSendable)

        var legacies = legaciesByConsumer[consumerName] ?? []
        for legacy in alongside + [legacyName] where !legacies.contains(legacy) {
            legacies.append(legacy)
        }
        legacies.sort()
        let access = min(configuration.accessLevel, consumer.accessLevel).modifier
        let namespaceMarker = GeneratedFileMarker.shimNamespaces.line
        var accesses = shimAccesses(of: consumerName)
        accesses[legacyName] = plan.accessLevel(configuration: configuration)

        return [
            GeneratedFile(path: "\(shimsFolder)/\(renderer.shimName).swift", contents: renderer.shim()),
            GeneratedFile(path: "\(shimsFolder)/\(renderer.wrapperName).swift", contents: renderer.wrapper()),
            GeneratedFile(
                path: "\(shimsFolder)/\(consumerName)+Shortcuts.swift",
                contents: shortcutsNamespace(consumerName, legacies, access: access, marker: namespaceMarker, accesses: accesses)),
            GeneratedFile(path: "\(mocksFolder)/\(mockName).swift", contents: mock.render()),
            GeneratedFile(
                path: "\(mocksFolder)/\(consumerName)+Mocks.swift",
                contents: mocksNamespace(consumerName, legacies, marker: namespaceMarker)),
        ]
    }

    /// The access levels of the shims of `consumer` the sources declare
    /// (generated before), by legacy type.
    func shimAccesses(of consumer: String) -> [String: AccessLevel] {
        var accesses: [String: AccessLevel] = [:]
        for legacy in legaciesByConsumer[consumer] ?? [] {
            if let shim = index.types["\(consumer)_\(legacy)Shim"], shim.kind == .protocol {
                accesses[legacy] = shim.accessLevel
            }
        }
        return accesses
    }

    /// The namespaces' type aliases, each no wider than its shim (`accesses`,
    /// by legacy type; `access` when not given).
    func shortcutsNamespace(
        _ consumer: String, _ legacies: [String], access: String, marker: String, accesses: [String: AccessLevel] = [:]
    ) -> String {
        let modifier = { (legacy: String) -> String in
            guard let narrower = accesses[legacy], narrower.modifier != access,
                  narrower < (AccessLevel(rawValue: access.trimmingWhitespace) ?? .internal)
            else { return access }
            return narrower.modifier
        }
        var lines = [
            marker,
            "",
            "extension \(consumer) {",
            "    /// What `\(consumer)` uses of legacy types, as protocols (Shortcut Way).",
            "    \(access)enum Shims {",
        ]
        for legacy in legacies {
            lines += [
                "        /// See ``\(consumer)_\(legacy)Shim``.",
                "        \(modifier(legacy))typealias \(legacy) = \(consumer)_\(legacy)Shim",
            ]
        }
        lines += [
            "    }",
            "",
            "    /// The production conformances, bridging to the legacy types.",
            "    \(access)enum Wrappers {",
        ]
        for legacy in legacies {
            lines += [
                "        /// See ``\(consumer)_\(legacy)Wrapper``.",
                "        \(modifier(legacy))typealias \(legacy) = \(consumer)_\(legacy)Wrapper",
            ]
        }
        lines += ["    }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    func mocksNamespace(_ consumer: String, _ legacies: [String], marker: String) -> String {
        var lines = [marker, ""]
        lines += configuration.mockImports.map (SwiftText.importStatement)
        if !configuration.mockImports.isEmpty { lines.append("") }
        lines += [
            "extension \(consumer) {",
            "    /// Test doubles for `\(consumer).Shims`; they live in the test target.",
            "    enum Mocks {",
        ]
        lines += legacies.map { "        typealias \($0) = \(consumer)_\($0)Mock" }
        lines += ["    }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }
}
#endif
