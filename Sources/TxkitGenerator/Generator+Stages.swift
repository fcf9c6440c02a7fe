#if Txkit
import Foundation

/// The stages the commands of ``Generator`` run, each over the sources read
/// once: a command's method is a few calls of these.
extension Generator {
    // MARK: Plan

    /// What `consumer` needs from `legacy` (the scan and plan stages): the
    /// members it uses and the transaction each takes.
    package func plan(consumer consumerName: String, legacy legacyName: String) throws -> ShimPlan {
        try timings.measure(.plan) {
            try ShimPlan(
                consumer: index.type(named: consumerName), legacy: index.type(named: legacyName),
                configuration: configuration)
        }
    }

    /// The pairs a previous `txkit shim` generated, from the markers of
    /// the shim files in the sources, sorted.
    public func generatedPairs() -> [(consumer: String, legacy: String)] {
        markedPairs
    }

    /// The legacy types of `consumer`'s pairs in ``generatedPairs()``,
    /// sorted.
    func generatedLegacies(of consumer: String) -> [String] {
        markedLegacies[consumer] ?? []
    }

    /// The pairs the markers of the shim files in `index`'s sources name,
    /// sorted.
    static func pairs(markedIn index: SourceIndex) -> [(consumer: String, legacy: String)] {
        var pairs: [(String, String)] = []
        var seen: Set<[String]> = []
        for file in index.sources.files {
            guard case let .shim(consumer, legacy)? = file.generatedBy else { continue }
            if seen.insert([consumer, legacy]).inserted {
                pairs.append((consumer, legacy))
            }
        }
        return pairs.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }

    /// The `mock --protocol P [--name N]` markers of the files in the
    /// mocks folder, in the order of their names.
    func generatedMocks() -> [(protocolName: String, mockName: String?)] {
        let folder = root.isEmpty ? layout.mocksRoot : (root as NSString).appendingPathComponent(layout.mocksRoot)
        var found: [(String, String?)] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for file in names.sorted() where file.hasSuffix(".swift") {
            let path = (folder as NSString).appendingPathComponent(file)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                  case let .mock(protocolName, mockName)? = GeneratedFileMarker(firstLine: text.prefix { $0 != "\n" })
            else { continue }
            found.append((protocolName, mockName))
        }
        return found
    }

    // MARK: Render

    /// The render stage: the shim, wrapper and mock of `plan`, and its
    /// consumer's namespaces, which list the pairs generated before and
    /// `alongside` too.
    package func render(_ plan: ShimPlan, alongside: [String] = []) -> [GeneratedFile] {
        let consumer = plan.consumer.name
        var legacies = generatedLegacies(of: consumer) + migratedShims(of: consumer)
        for legacy in alongside + [plan.legacy.name] where !legacies.contains(legacy) {
            legacies.append(legacy)
        }
        return timings.measure(.render) {
            ShimFilesRenderer(
                plan: plan, configuration: configuration, legacies: legacies.sorted(), accesses: shimAccesses(of: consumer)
            ).files()
        }
    }

    /// `Database` when `txkit migrate` wrote `consumer`'s `Database` shim
    /// (a file marked as written from its code), which its namespaces list.
    func migratedShims(of consumer: String) -> [String] {
        let name = GeneratedLayout.shimName(consumer: consumer, legacy: GeneratedLayout.databaseShimLegacy) + ".swift"
        return index.sources.files(named: name).contains { $0.generatedBy == .migrated(consumer: consumer) }
            ? [GeneratedLayout.databaseShimLegacy] : []
    }

    /// The access levels of `consumer`'s shims the sources declare (written
    /// before), by legacy type.
    func shimAccesses(of consumer: String) -> [String: AccessLevel] {
        var accesses: [String: AccessLevel] = [:]
        for legacy in generatedLegacies(of: consumer) + migratedShims(of: consumer) {
            if let shim = index.types[GeneratedLayout.shimName(consumer: consumer, legacy: legacy)], shim.kind == .protocol {
                accesses[legacy] = shim.accessLevel
            }
        }
        return accesses
    }

    /// The files of several pairs generated together (`txkit shim --all`):
    /// each consumer's namespaces list all its pairs, those generated
    /// before and those in `pairs`. A file two pairs share is listed once.
    ///
    /// The pairs are planned and rendered on every core, from the one
    /// index (the time is the `render` stage's); the files keep the order
    /// of the pairs, and the first error in that order is thrown.
    public func shim(pairs: [(consumer: String, legacy: String)]) throws -> [GeneratedFile] {
        var legaciesByConsumer: [String: [String]] = [:]
        for pair in pairs {
            legaciesByConsumer[pair.consumer, default: []].append(pair.legacy)
        }
        let rendered = try timings.measureInParallel(.render) {
            // A consumer with several legacy types is scanned once for all.
            let shared = legaciesByConsumer.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }
            _ = shared.concurrentMap { consumer, legacies in
                (try? index.type(named: consumer)).map {
                    index.consumerScans.prepare($0, for: Set(legacies), index: index, configuration: configuration)
                }
            }
            return try pairs.concurrentMap { pair throws(any Error) in
                try render(
                    plan(consumer: pair.consumer, legacy: pair.legacy), alongside: legaciesByConsumer[pair.consumer] ?? [])
            }
        }
        var files: [GeneratedFile] = []
        var seen: Set<String> = []
        for file in rendered.joined() where seen.insert(file.path).inserted {
            files.append(file)
        }
        return files
    }

    /// The render stage of `txkit mock`: the mock of `protocolName`, a
    /// protocol of `index`, read with `configuration`.
    ///
    /// - Throws: ``GeneratorError/refused(_:_:)`` for a type that is not a
    ///   protocol, or with each place and reason when the protocol has a
    ///   shape txkit cannot mock; nothing is generated then.
    func renderMock(
        protocol protocolName: String, mockName: String?, index: SourceIndex, configuration: GeneratorConfiguration
    ) throws -> GeneratedFile {
        let renderer = try Self.mockRenderer(
            protocol: protocolName, mockName: mockName, index: index, configuration: configuration)
        let refusals = renderer.refusals()
        guard refusals.isEmpty else {
            throw GeneratorError.mockRefused(protocol: protocolName, refusals)
        }
        return GeneratedFile(
            path: GeneratedLayout(configuration).protocolMockPath(protocol: protocolName, mockName: renderer.mockName),
            contents: renderer.render())
    }

    /// The mock of the protocol `protocolFile` declares (the one `txkit
    /// convert` writes), exactly as `txkit mock --protocol` writes it once
    /// the protocol is in the sources.
    func renderMock(ofProtocolIn protocolFile: GeneratedFile, named protocolName: String) throws -> GeneratedFile {
        let index = SourceIndex(try SourceSet(sources: [(path: protocolFile.path, text: protocolFile.contents)]))
        return try renderMock(
            protocol: protocolName, mockName: nil, index: index, configuration: configuration.addingTypealiases(of: index))
    }

    /// The protocol's requirements, read, with the mock's name.
    package func mockRenderer(protocol protocolName: String, mockName: String? = nil) throws -> ProtocolMockRenderer {
        try Self.mockRenderer(protocol: protocolName, mockName: mockName, index: index, configuration: configuration)
    }

    private static func mockRenderer(
        protocol protocolName: String, mockName: String?, index: SourceIndex, configuration: GeneratorConfiguration
    ) throws -> ProtocolMockRenderer {
        let type = try index.type(named: protocolName)
        guard type.kind == .protocol else {
            let kind = type.kind.map { ($0 == .enum || $0 == .actor ? "an " : "a ") + $0.rawValue }
                ?? "a type known only from extensions"
            throw GeneratorError.mockRefused(protocol: protocolName, [Refusal(
                .cannotMock, at: type.location,
                "\(protocolName) is \(kind), not a protocol; txkit mock writes mocks of finder protocols (the Good Way)",
                fix: "for a legacy type that managers use, run txkit shim --consumer MANAGER --legacy \(protocolName) "
                    + "(the Shortcut Way), or declare a protocol for it and mock that")])
        }
        let requirements = ProtocolRequirements(type, index: index)
        let name = mockName ?? GeneratedLayout.protocolMockName(protocol: protocolName)
        var imports = ShimRenderer.imports(
            of: type, configuration: configuration,
            adding: configuration.mockImports + ["TransactionKit", "TransactionKitTesting"])
        if requirements.requiresNSObject && !imports.contains("Foundation") {
            imports.insert("Foundation", at: 0)
        }
        let needed = MockImports.excludedModulesNeeded(by: requirements, configuration: configuration, index: index)
        imports = (imports + needed.filter { !imports.contains($0) }).sorted()
        return ProtocolMockRenderer(
            requirements: requirements, mockName: name, imports: imports,
            marker: GeneratedFileMarker.mock(protocolName: protocolName, mockName: mockName).line, index: index)
    }

    // MARK: Rewrite

    /// The rewrite stage: the edits that route `plan`'s consumer through
    /// its shim (the plan ``render(_:alongside:)`` renders); empty when it
    /// already goes through it.
    ///
    /// - Throws: ``GeneratorError`` when a use cannot be rewritten (through
    ///   a local or parameter of the legacy type, or with a legacy
    ///   transaction not built by a configured bridge), or when the edits
    ///   would overlap; nothing is edited then.
    package func rewrite(_ plan: ShimPlan) throws -> [ConsumerEdit] {
        try timings.measure(.rewrite) { try ConsumerRewriter(plan: plan, configuration: configuration).rewrite() }
    }

    // MARK: Write

    /// The write stage of `txkit convert --apply`: every file `conversion`
    /// edits, writes and deletes, all or nothing.
    ///
    /// - Throws: ``GeneratorError/refused(_:_:)`` while the conversion has
    ///   places left to a person; nothing is written then.
    package func changes(applying conversion: LegacyConversion) throws -> FileChangeSet {
        guard conversion.blockers.isEmpty else {
            throw GeneratorError.convertRefused(legacy: conversion.legacy, conversion.blockers)
        }
        return try changes(files: conversion.files, edits: conversion.edits, deletions: conversion.deletions)
    }

    /// What `txkit shim --apply` edits for one pair: ``plan(consumer:legacy:)``
    /// then ``rewrite(_:)`` (``shim(consumer:legacy:)`` renders the pair's
    /// files from the same plan).
    public func apply(consumer: String, legacy: String) throws -> [ConsumerEdit] {
        try rewrite(plan(consumer: consumer, legacy: legacy))
    }

    // MARK: Report

    /// Whether the shim and wrapper on disk are what `txkit shim` writes now.
    func shimIsCurrent(_ consumer: String, _ legacy: String) -> Bool {
        guard let files = try? render(plan(consumer: consumer, legacy: legacy)) else { return false }
        let paths = [layout.shimPath(consumer: consumer, legacy: legacy), layout.wrapperPath(consumer: consumer, legacy: legacy)]
        for file in files where paths.contains(file.path) {
            let name = (file.path as NSString).lastPathComponent
            guard let onDisk = index.sources.files(named: name).first(where: { $0.path.hasSuffix("/" + file.path) || $0.path == file.path }),
                  onDisk.tree.description == file.contents
            else { return false }
        }
        return true
    }
}
#endif
