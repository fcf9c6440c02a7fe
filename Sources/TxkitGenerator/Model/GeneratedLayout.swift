#if Txkit
import Foundation

/// What txkit names the code it generates, and where it puts it: the one
/// place that spells the Shortcut Way's names (`C_DShim`, `C_DWrapper`,
/// `C_DMock`), their namespaces (`C.Shims.D`, `C.Wrappers.D`,
/// `C.Mocks.D`), their files, the Good Way's `PMock` and `DFinding`, and
/// the `$consumer` folder template of `txkit.json`. Every stage that
/// writes, reads back or rewrites those names asks this type.
///
/// ```swift
/// let layout = GeneratedLayout(configuration)
/// layout.shimPath(consumer: "TaskManager", legacy: "TaskStore")
/// // "Sources/App/Shortcuts/TaskManager/TaskManager_TaskStoreShim.swift"
/// GeneratedLayout.shimReference(consumer: "TaskManager", legacy: "TaskStore")
/// // "TaskManager.Shims.TaskStore"
/// ```
package struct GeneratedLayout: Sendable {
    /// What a folder template of `txkit.json` writes for the consumer's name.
    package static let consumerPlaceholder = "$consumer"

    /// The namespace of a consumer's shims: `C.Shims.D`.
    package static let shimsNamespace = "Shims"
    /// The namespace of a consumer's wrappers: `C.Wrappers.D`.
    package static let wrappersNamespace = "Wrappers"
    /// The namespace of a consumer's mocks: `C.Mocks.D`.
    package static let mocksNamespace = "Mocks"

    /// `txkit.json`'s `shimsFolder`, with ``consumerPlaceholder``.
    package let shimsFolderTemplate: String
    /// `txkit.json`'s `mocksFolder`, with ``consumerPlaceholder``.
    package let mocksFolderTemplate: String

    package init(shimsFolder: String, mocksFolder: String) {
        shimsFolderTemplate = shimsFolder
        mocksFolderTemplate = mocksFolder
    }

    package init(_ configuration: GeneratorConfiguration) {
        self.init(shimsFolder: configuration.shimsFolder, mocksFolder: configuration.mocksFolder)
    }

    // MARK: Shortcut Way: names

    /// `C_DShim`: the protocol of what `consumer` uses of `legacy`.
    package static func shimName(consumer: String, legacy: String) -> String { "\(consumer)_\(legacy)Shim" }

    /// `C_DWrapper`: the shim's production conformance.
    package static func wrapperName(consumer: String, legacy: String) -> String { "\(consumer)_\(legacy)Wrapper" }

    /// `C_DMock`: the shim's mock.
    package static func mockName(consumer: String, legacy: String) -> String { "\(consumer)_\(legacy)Mock" }

    /// `C.Shims.D`, as call sites spell the shim.
    package static func shimReference(consumer: String, legacy: String) -> String {
        "\(consumer).\(shimsNamespace).\(legacy)"
    }

    /// `C.Wrappers.D`, as call sites spell the wrapper.
    package static func wrapperReference(consumer: String, legacy: String) -> String {
        "\(consumer).\(wrappersNamespace).\(legacy)"
    }

    /// `C.Mocks.D`, as tests spell the mock.
    package static func mockReference(consumer: String, legacy: String) -> String {
        "\(consumer).\(mocksNamespace).\(legacy)"
    }

    /// Whether `expression` already is `consumer`'s wrapper or mock of some
    /// legacy type (`C.Wrappers.D(…)`, `C.Mocks.D()`), which `--apply`
    /// passes as it is.
    package static func namesWrapperOrMock(_ expression: String, consumer: String) -> Bool {
        expression.hasPrefix("\(consumer).\(wrappersNamespace).") || expression.hasPrefix("\(consumer).\(mocksNamespace).")
    }

    /// The legacy type of `consumer` whose generated shim `type` names
    /// (`Shims.D`, `C.Shims.D`, `C_DShim`, with `any`, `some`, `?` or
    /// parentheses around), or `nil`.
    package static func shimmedLegacy(_ type: String, consumer: String) -> String? {
        let core = SourceIndex.coreTypeName(type)
        for prefix in ["\(consumer).\(shimsNamespace).", "\(shimsNamespace)."] where core.hasPrefix(prefix) {
            return String(core.dropFirst(prefix.count))
        }
        return legacy(ofShimName: core, consumer: consumer)
    }

    /// `D` for `C_DShim`, the name of `consumer`'s shim of `D`; `nil` for
    /// any other name.
    package static func legacy(ofShimName name: String, consumer: String) -> String? {
        // The suffix first: the inventory asks of every identifier of every
        // consumer, and the prefix is a new string.
        let suffix = "Shim"
        guard name.hasSuffix(suffix) else { return nil }
        let prefix = consumer + "_"
        guard name.hasPrefix(prefix), name.count > prefix.count + suffix.count else { return nil }
        return String(name.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// Whether `type`, as a declaration writes it, is `consumer`'s shim of
    /// `legacy` (`Shims.D`, `C.Shims.D` or `C_DShim`).
    package static func isShim(_ type: String, consumer: String, legacy: String) -> Bool {
        type == "\(shimsNamespace).\(legacy)" || type == shimReference(consumer: consumer, legacy: legacy)
            || type == shimName(consumer: consumer, legacy: legacy)
    }

    // MARK: Shortcut Way: files

    /// The folder of `consumer`'s shims, wrappers and `Shims`/`Wrappers`
    /// namespaces, relative to the root.
    package func shimsFolder(consumer: String) -> String {
        shimsFolderTemplate.replacingBytes(of: Self.consumerPlaceholder, with: consumer)
    }

    /// The folder of `consumer`'s mocks and `Mocks` namespace, relative to
    /// the root.
    package func mocksFolder(consumer: String) -> String {
        mocksFolderTemplate.replacingBytes(of: Self.consumerPlaceholder, with: consumer)
    }

    /// The folder that holds every consumer's shims: ``shimsFolderTemplate``
    /// up to its first `$`.
    package var shimsRoot: String { String(shimsFolderTemplate.prefix { $0 != "$" }) }

    /// The folder that holds every mock: ``mocksFolderTemplate`` up to
    /// ``consumerPlaceholder``.
    package var mocksRoot: String { mocksFolderTemplate.components(separatedBy: Self.consumerPlaceholder)[0] }

    package func shimPath(consumer: String, legacy: String) -> String {
        "\(shimsFolder(consumer: consumer))/\(Self.shimName(consumer: consumer, legacy: legacy)).swift"
    }

    package func wrapperPath(consumer: String, legacy: String) -> String {
        "\(shimsFolder(consumer: consumer))/\(Self.wrapperName(consumer: consumer, legacy: legacy)).swift"
    }

    package func mockPath(consumer: String, legacy: String) -> String {
        "\(mocksFolder(consumer: consumer))/\(Self.mockName(consumer: consumer, legacy: legacy)).swift"
    }

    /// `C+Shortcuts.swift`: the consumer's `Shims` and `Wrappers` namespaces.
    package func shortcutsNamespacePath(consumer: String) -> String {
        "\(shimsFolder(consumer: consumer))/\(consumer)+Shortcuts.swift"
    }

    /// `C+Mocks.swift`: the consumer's `Mocks` namespace.
    package func mocksNamespacePath(consumer: String) -> String {
        "\(mocksFolder(consumer: consumer))/\(consumer)+Mocks.swift"
    }

    // MARK: txkit migrate

    /// The "legacy type" of the shim `txkit migrate` writes for a consumer's
    /// own data access: `C_DatabaseShim`, `C.Shims.Database`.
    package static let databaseShimLegacy = "Database"

    /// `C+Production.swift`: the entry points `txkit migrate` keeps for a
    /// consumer's callers, beside its shims.
    package func productionPath(consumer: String) -> String {
        "\(shimsFolder(consumer: consumer))/\(consumer)+Production.swift"
    }

    // MARK: Good Way

    /// `PMock`: the mock of the protocol `protocolName` (`Outer.P` → `PMock`).
    package static func protocolMockName(protocol protocolName: String) -> String {
        simpleName(protocolName) + "Mock"
    }

    /// Where the mock `mockName` of `protocolName` goes: the mocks folder,
    /// with the protocol's name for ``consumerPlaceholder``.
    package func protocolMockPath(protocol protocolName: String, mockName: String) -> String {
        "\(mocksFolder(consumer: Self.simpleName(protocolName)))/\(mockName).swift"
    }

    /// `DFinding`: the protocol `txkit convert` declares for the finder
    /// `legacy` (`UserFinder` → `UserFinding`, `InteractionStore` →
    /// `InteractionStoreFinding`).
    package static func findingProtocolName(legacy: String) -> String {
        legacy.hasSuffix("Finder") ? String(legacy.dropLast("Finder".count)) + "Finding" : legacy + "Finding"
    }

    /// The test target that holds the mocks (`Tests/AppTests` for
    /// `Tests/AppTests/Mocks`), whose code uses the shims' mocks too.
    package var mocksTestTarget: String? {
        let folder = String(mocksFolderTemplate.prefix { $0 != "$" })
        let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        guard !trimmed.isEmpty else { return nil }
        let module = SourceIndex.module(of: trimmed + "/File.swift")
        return module.isEmpty ? nil : module
    }

    // MARK: Names in a person's code, for `txkit convert`

    /// What a pattern of ``referencePatterns(consumers:legacy:)`` finds.
    package enum Generated {
        case shim, wrapper, mock
    }

    /// Regular expressions for the names a person's code gives the shims,
    /// wrappers and mocks of `legacy` for `consumers`, in the order they are
    /// replaced: namespaced (`C.Shims.D`, or `Shims.D` inside `C`), as a
    /// path in a doc comment (`C/Shims/D`), then by type name (`C_DShim`).
    package static func referencePatterns(consumers: [String], legacy: String) -> [(pattern: String, names: Generated)] {
        let d = NSRegularExpression.escapedPattern(for: legacy)
        let names = consumers.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        let owner = ownerPattern(consumers)
        return [
            ("\(owner)\(shimsNamespace)\\.\(d)\\b", .shim),
            ("\(owner)\(mocksNamespace)\\.\(d)\\b", .mock),
            ("\(owner)\(wrappersNamespace)\\.\(d)\\b", .wrapper),
            ("\\b(?:\(names))/\(shimsNamespace)/\(d)\\b", .shim),
            ("\\b(?:\(names))/\(mocksNamespace)/\(d)\\b", .mock),
            ("\\b(?:\(names))/\(wrappersNamespace)/\(d)\\b", .wrapper),
            ("\\b(?:\(names))_\(d)Shim\\b", .shim),
            ("\\b(?:\(names))_\(d)Mock\\b", .mock),
            ("\\b(?:\(names))_\(d)Wrapper\\b", .wrapper),
        ]
    }

    /// A regular expression for a construction of the wrapper of `legacy`
    /// for one of `consumers`, up to its `(`: `C.Wrappers.D(`.
    package static func wrapperConstructionPattern(consumers: [String], legacy: String) -> String {
        "\(ownerPattern(consumers))\(wrappersNamespace)\\.\(NSRegularExpression.escapedPattern(for: legacy))\\("
    }

    /// A regular expression for `consumer`'s mock of `legacy`: `C.Mocks.D`
    /// or `C_DMock`.
    package static func mockPattern(consumer: String, legacy: String) -> String {
        let c = NSRegularExpression.escapedPattern(for: consumer), d = NSRegularExpression.escapedPattern(for: legacy)
        return "\\b\(c)\\.\(mocksNamespace)\\.\(d)\\b|\\b\(c)_\(d)Mock\\b"
    }

    /// `C.` for one of `consumers`, or nothing after a character that
    /// would make the name another's (`Shims.D` inside `C`).
    private static func ownerPattern(_ consumers: [String]) -> String {
        "(?:(?:\(consumers.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")))\\.|(?<![\\w.]))"
    }

    private static func simpleName(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }
}
#endif
