#if Txkit
import Foundation
import SwiftSyntax

/// What `txkit init` proposes for a project's `txkit.json`, after looking
/// at its sources: which folders to read, which legacy transaction types
/// its data-access code takes, and where generated files go.
///
/// A legacy transaction type is a parameter type that is GRDB's `Database`
/// (in a file that imports GRDB, unless the sources declare a `Database` of
/// their own), a type the sources declare that wraps a `Database` (an
/// app's own transaction classes, ``wrapperSettings(_:)``), or one whose
/// name ends in `Transaction`; the types most used come first.
package struct ConfigurationProposal: Equatable, Sendable {
    /// A proposed legacy transaction type and how many parameters take it.
    package struct Candidate: Equatable, Sendable {
        /// The type's name as the sources write it (`Database`).
        package var type: String
        /// How many parameters of the sources take it.
        package var parameterCount: Int
    }

    /// The folders to read, relative to the root.
    package var sources: [String]
    /// The legacy transaction types found, most used first.
    package var candidates: [Candidate]
    /// For the app's own transaction classes among them, their settings
    /// (see ``wrapperSettings(_:)``).
    package var settings: [String: LegacySetting] = [:]
    /// Where generated shims and wrappers go (`$consumer` is replaced).
    package var shimsFolder: String
    /// Where generated mocks go, in a test target (`$consumer` is replaced).
    package var mocksFolder: String
    /// The access level proposed for shims and wrappers: `public` when the
    /// sources declare a public or open initializer (an `--apply` gives a
    /// manager's initializer a wrapper as default value, which a public
    /// initializer can only name when it is public), `package` otherwise.
    package var accessLevel: AccessLevel

    /// Looks at the Swift files under `root`.
    ///
    /// - Parameters:
    ///   - root: The project folder (where txkit.json goes).
    ///   - sources: Folders relative to `root` (the plugin passes its
    ///     targets'); by default each folder of `root/Sources`, or `root`
    ///     itself without one.
    ///   - timings: Where the parse and index stages' costs go.
    package init(root: String, sources: [String]? = nil, timings: StageTimings = StageTimings()) throws {
        let manager = FileManager.default
        let sourcesFolder = (root as NSString).appendingPathComponent("Sources")
        let found = sources ?? (try? manager.contentsOfDirectory(atPath: sourcesFolder))?
            .filter { !$0.hasPrefix(".") }
            .sorted()
            .map { "Sources/\($0)" }
        self.sources = (found?.isEmpty ?? true) ? ["."] : found!
        let absolute = self.sources.map { $0 == "." ? root : (root as NSString).appendingPathComponent($0) }
        let set = try timings.measure(.parse) { try SourceSet(paths: absolute) }
        var counts: [String: Int] = [:]
        var firstFolder: [String: String] = [:]
        var declaresPublicInitializer = false
        // The types the sources declare (not those they only extend, such
        // as GRDB's `Database`), typealiases included.
        let index = timings.measure(.index) { SourceIndex(set) }
        let declared = Set(index.types.filter { $0.value.kind != nil }.keys).union(index.typealiases.keys)
        let wrappers = Self.wrapperSettings(index)
        for file in set.files {
            let importsGRDB = file.tree.statements.contains {
                $0.item.as(ImportDeclSyntax.self)?.path.first?.name.text == "GRDB"
            }
            let collector = ParameterTypeCollector(viewMode: .sourceAccurate)
            collector.walk(file.tree)
            declaresPublicInitializer = declaresPublicInitializer || collector.declaresPublicInitializer
            for type in collector.types {
                let core = SourceIndex.coreTypeName(type)
                guard let name = wrappers[core] != nil ? core : Self.legacyTransactionName(type, importsGRDB: importsGRDB, declared: declared) else {
                    continue
                }
                counts[name, default: 0] += 1
                if firstFolder[name] == nil {
                    firstFolder[name] = zip(absolute, self.sources).first { file.path.hasPrefix($0.0) }?.1
                }
            }
        }
        accessLevel = declaresPublicInitializer ? .public : .package
        settings = wrappers.filter { counts[$0.key] != nil }
        candidates = counts.map { Candidate(type: $0.key, parameterCount: $0.value) }
            .sorted { ($0.parameterCount, $1.type) > ($1.parameterCount, $0.type) }
        let home = candidates.first.flatMap { firstFolder[$0.type] } ?? self.sources[0]
        shimsFolder = (home == "." ? "" : home + "/") + "Shortcuts/" + GeneratedLayout.consumerPlaceholder
        let module = (home as NSString).lastPathComponent
        let testsFolder = "Tests/\(module)Tests"
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: (root as NSString).appendingPathComponent(testsFolder), isDirectory: &isDirectory),
           isDirectory.boolValue {
            mocksFolder = testsFolder + "/Mocks"
        } else {
            mocksFolder = "Tests/Mocks"
        }
    }

    /// The legacy transaction type a parameter of type `type` names, if any.
    ///
    /// - `Database` in a file that imports GRDB is GRDB's, unless the
    ///   sources declare a `Database` of their own, which shadows it there
    ///   (EntropyKit's `class Database` wraps a queue and opens its own
    ///   transactions): then only `GRDB.Database` is, proposed as spelled.
    /// - A name ending in `Transaction` is an app's own transaction type
    ///   only when the sources declare it (WooCommerce's parameters of
    ///   StoreKit's `Transaction` are not one).
    static func legacyTransactionName(_ type: String, importsGRDB: Bool, declared: Set<String>) -> String? {
        var core = type.trimmingCharacters(in: .whitespaces)
        for prefix in ["inout ", "borrowing ", "consuming "] where core.hasPrefix(prefix) {
            core.removeFirst(prefix.count)
        }
        while core.hasSuffix("?") || core.hasSuffix("!") { core.removeLast() }
        let shadowed = declared.contains("Database")
        if core.hasPrefix("GRDB.") { return core == "GRDB.Database" ? (shadowed ? core : "Database") : nil }
        guard core.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return nil }
        let last = core.split(separator: ".").last.map(String.init) ?? core
        if core == "Database" { return importsGRDB && !shadowed ? "Database" : nil }
        if ["DBReadTransaction", "DBWriteTransaction"].contains(last) { return nil }
        return last.hasSuffix("Transaction") && declared.contains(last) ? last : nil
    }
}

/// Collects the type of every function and initializer parameter, and
/// whether an initializer is public or open.
private final class ParameterTypeCollector: SyntaxVisitor {
    var types: [String] = []
    var declaresPublicInitializer = false

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.modifiers.contains(where: { ["public", "open"].contains($0.name.text) }) {
            declaresPublicInitializer = true
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        types.append(node.type.trimmedText)
        return .visitChildren
    }
}
#endif
