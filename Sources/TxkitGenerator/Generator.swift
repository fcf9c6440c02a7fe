#if Txkit
import Foundation

/// The code generator: the one entry of every `txkit` command. It reads
/// the sources once; each command is a method below that runs its stages
/// over typed values and returns what it would write. Nothing is written
/// here: the commands write through a ``FileChangeSet`` (all or nothing).
///
/// The stages, a folder of this module each (with `Model/` for the values
/// they share and `Syntax/` for their queries of the syntax tree):
///
/// | stage | folder | in → out |
/// | --- | --- | --- |
/// | configure | `Configuration/` | `txkit.json` → `GeneratorConfiguration` (`init` proposes one) |
/// | read | `Read/` | paths → `SourceSet` (parsed `SourceFile`s) |
/// | index | `Index/` | `SourceSet` → `SourceIndex` (types, members, bodies) |
/// | scan | `Resolve/` | a consumer's bodies → `ConsumerScan` (its uses of legacy members) |
/// | plan | `Plan/` | consumer + legacy type → `ShimPlan` (members, read or write) |
/// | render | `Render/` | `ShimPlan`, a protocol → `GeneratedFile`s (shims, wrappers, mocks, namespaces) |
/// | rewrite | `Rewrite/` | `ShimPlan` → `ConsumerEdit`s (`shim --apply`) |
/// | convert | `Convert/` | legacy finder → `LegacyConversion` (its edits, protocol, mock) |
/// | migrate | `Migrate/` | consumer → `ConsumerMigration` (its data access extracted, its edits, its shims) |
/// | write | `Write/` | files, edits, deletions → disk, all or nothing (`FileChangeSet`), `--verify` |
/// | report | `Inventory/` | `SourceIndex` → `Inventory` |
///
/// ``GeneratedLayout`` names what is generated and where it goes.
public final class Generator {
    package let configuration: GeneratorConfiguration
    package let index: SourceIndex
    /// The folder of `txkit.json`: generated paths are relative to it
    /// (empty for sources held in memory).
    package let root: String
    /// The folders of the sources read from disk, which `convert` searches
    /// for Objective-C callers.
    let sourceFolders: [String]
    /// What each stage of this run cost so far.
    package let timings: StageTimings

    /// Reads the sources `txkit.json` names (or `sources`, relative to
    /// `root`), and the shims generated before.
    ///
    /// - Parameters:
    ///   - includingTests: Whether to read the test target of the mocks
    ///     too (`txkit convert` rewrites the tests that use the shims'
    ///     mocks).
    ///   - timings: Where each stage's cost is recorded (`--timings`).
    public convenience init(
        root: String, configuration: GeneratorConfiguration, sources: [String]? = nil, includingTests: Bool = false,
        timings: StageTimings = StageTimings()
    ) throws {
        let absolute = { (path: String) in path.hasPrefix("/") ? path : (root as NSString).appendingPathComponent(path) }
        let layout = GeneratedLayout(configuration)
        var relative = sources ?? configuration.sources
        if includingTests, let tests = layout.mocksTestTarget, FileManager.default.fileExists(atPath: absolute(tests)),
           !relative.contains(tests) {
            relative.append(tests)
        }
        var paths = relative.map(absolute)
        let folders = paths.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        // The shims already generated, even outside the sources: their
        // markers list each consumer's pairs, which its namespaces name.
        let shims = absolute(layout.shimsRoot)
        let standardized = { (path: String) in (path as NSString).standardizingPath }
        if FileManager.default.fileExists(atPath: shims),
           !paths.contains(where: { standardized(shims).hasPrefix(standardized($0) + "/") || standardized($0) == standardized(shims) }) {
            paths.append(shims)
        }
        let sources = try timings.measure(.parse) { try SourceSet(paths: paths) }
        self.init(configuration: configuration, sources: sources, root: root, sourceFolders: folders, timings: timings)
    }

    package init(
        configuration: GeneratorConfiguration, sources: SourceSet, root: String = "", sourceFolders: [String] = [],
        timings: StageTimings = StageTimings()
    ) {
        self.timings = timings
        index = timings.measure(.index) { SourceIndex(sources) }
        markedPairs = Self.pairs(markedIn: index)
        markedLegacies = Dictionary(grouping: markedPairs, by: \.consumer).mapValues { $0.map(\.legacy) }
        self.configuration = configuration.addingTypealiases(of: index)
        self.root = root
        self.sourceFolders = sourceFolders
    }

    /// Where generated files go, and their names.
    package var layout: GeneratedLayout { GeneratedLayout(configuration) }

    /// ``generatedPairs()``, read from the markers once.
    let markedPairs: [(consumer: String, legacy: String)]

    /// ``markedPairs`` by consumer: each consumer's legacy types, sorted.
    let markedLegacies: [String: [String]]

    // MARK: - The commands

    /// `txkit init`: a starting `txkit.json` for the project at `root`,
    /// from the legacy transaction types its sources take (read → index →
    /// propose); ``ConfigurationProposal/file`` is what it writes.
    package static func proposeConfiguration(
        root: String, sources: [String]? = nil, timings: StageTimings = StageTimings()
    ) throws -> ConfigurationProposal {
        try ConfigurationProposal(root: root, sources: sources, timings: timings)
    }

    /// `txkit inventory`: the legacy types, who uses them and how far
    /// each use is migrated (index → scan every type → report).
    public func inventory() -> Inventory {
        // Each consumer is scanned on every core: the plans and renders
        // of a current-shim check inside are the scan's.
        timings.measureInParallel(.scan) {
            Inventory(
                index: index, configuration: configuration, generatedPairs: generatedPairs(),
                isShimCurrent: shimIsCurrent)
        }
    }

    /// `txkit shim --consumer C --legacy D`: what C uses of D, planned once,
    /// rendered as the pair's shim, wrapper, mock and namespaces, and
    /// rewritten as the edits `--apply` makes to route C through the shim
    /// (or why it cannot).
    package func shim(consumer: String, legacy: String) throws -> ShimOutput {
        let plan = try plan(consumer: consumer, legacy: legacy)
        return ShimOutput(plan: plan, files: render(plan), edits: Result { try rewrite(plan) })
    }

    /// `txkit shim --all`: every pair a previous run generated, rendered
    /// again (see ``shim(pairs:)``).
    public func shimAll() throws -> [GeneratedFile] {
        try shim(pairs: generatedPairs())
    }

    /// `txkit mock --protocol P`: a mock of a protocol of the sources (its
    /// requirements → stubs), or the places that refuse it.
    package func mock(protocol protocolName: String, mockName: String? = nil) throws -> GeneratedFile {
        try renderMock(protocol: protocolName, mockName: mockName, index: index, configuration: configuration)
    }

    /// `txkit mock --all`: every mock a previous `txkit mock` wrote in the
    /// mocks folder, from its marker.
    package func mockAll() throws -> [GeneratedFile] {
        try generatedMocks().map { try mock(protocol: $0.protocolName, mockName: $0.mockName) }
    }

    /// `txkit convert --legacy D`: the finder D takes TransactionKit
    /// transactions and conforms to a new protocol, its callers and the
    /// code on its shims follow, its mock is written as `txkit mock`
    /// writes one; or the places left to a person.
    public func convert(
        legacy: String, protocolName: String? = nil, statics: LegacyConversion.Statics = .keep
    ) throws -> LegacyConversion {
        var converter = try LegacyConverter(generator: self, legacy: legacy, protocolName: protocolName, statics: statics)
        converter.listObjectiveCCallers(in: sourceFolders)
        converter.checkRetiredPairs()
        let uses = converter.scanCallers()
        converter.collectConvertedMembers(uses: uses)
        converter.rewrite(uses: uses)
        converter.checkProtocolRequirements()
        let protocolFile = converter.protocolFile()
        let mock = try renderMock(ofProtocolIn: protocolFile, named: converter.protocolName)
        return try converter.conversion(files: [protocolFile, mock])
    }

    /// `txkit migrate C`: C, all the way to `any DB` — its database handle,
    /// its blocks and the methods that receive a legacy transaction found;
    /// its legacy data access extracted into its `Database` shim and its
    /// finders planned as pairs; its code rewritten, its initializer split;
    /// the shims, wrappers, mocks, namespaces and production entry points
    /// rendered (see ``ConsumerMigration``); or every place that stops it.
    package func migrate(consumer: String) throws -> MigrationOutput {
        let migration = try timings.measure(.migrate) { try ConsumerMigration(consumer: consumer, generator: self) }
        return MigrationOutput(
            files: migration.files, edits: migration.edits,
            requirements: migration.requirements.map(\.displayName), pairs: migration.pairs,
            isAlreadyMigrated: migration.isAlreadyMigrated)
    }

    /// The write stage: `files` generated, `edits` made and `deletions`
    /// deleted under ``root``, all or nothing, once each is checked (see
    /// ``FileChangeSet``).
    package func changes(
        files: [GeneratedFile], edits: [ConsumerEdit] = [], deletions: [String] = []
    ) throws -> FileChangeSet {
        try timings.measure(.check) { try FileChangeSet(root: root, files: files, edits: edits, deletions: deletions) }
    }

    /// What ``migrate(consumer:)`` computes for one consumer.
    package struct MigrationOutput {
        /// The shims, wrappers, mocks, namespaces and production entry points.
        package var files: [GeneratedFile]
        /// The consumer's files, rewritten.
        package var edits: [ConsumerEdit]
        /// The `Database` shim's requirements, `name(a:_:)`.
        package var requirements: [String]
        /// The legacy types whose pair shims it uses.
        package var pairs: [String]
        /// It consumed only the abstractions already: nothing was planned.
        package var isAlreadyMigrated: Bool
    }

    /// What ``shim(consumer:legacy:)`` computes for one pair.
    package struct ShimOutput {
        /// What the consumer needs from the legacy type.
        package var plan: ShimPlan
        /// The shim, wrapper, mock and namespaces.
        package var files: [GeneratedFile]
        /// What `--apply` edits (empty when the consumer already goes
        /// through the shim), or why it cannot.
        package var edits: Result<[ConsumerEdit], any Error>
    }
}
#endif
