#if Txkit
import Foundation
import SwiftSyntax

/// The files `txkit migrate` writes: the consumer's `Database` shim, its
/// wrapper and production entry points (the user's from then on), the
/// pairs' shims, wrappers and mocks, the `Database` mock, and the
/// namespaces.
extension ConsumerMigration {
    /// The `Database` shim is `Sendable` unless its wrapper holds a holder
    /// that is not (a `Sendable` consumer holds the shim).
    var databaseShimIsSendable: Bool {
        context.requirements.compactMap(\.holder).allSatisfy { holder in
            context.index.types[holder].map { ShimPlan.isSendable($0, index: context.index) } ?? false
        }
    }

    static let databaseShimName = GeneratedLayout.databaseShimLegacy

    func render(generator: Generator, production: Production) throws -> [GeneratedFile] {
        let consumer = context.consumer.name
        let configuration = context.configuration
        let layout = GeneratedLayout(configuration)
        let marker = GeneratedFileMarker.migrated(consumer: consumer).line
        let access = databaseShimAccess.modifier
        let imports = consumerImports()
        var files: [GeneratedFile] = []
        var legacies = pairs
        if !context.requirements.isEmpty {
            legacies.append(Self.databaseShimName)
            let shimName = GeneratedLayout.shimName(consumer: consumer, legacy: Self.databaseShimName)
            let shimPath = layout.shimPath(consumer: consumer, legacy: Self.databaseShimName)
            let shim = databaseShim(name: shimName, access: access, imports: imports, marker: marker)
            files.append(GeneratedFile(path: shimPath, contents: shim))
            files.append(GeneratedFile(
                path: layout.wrapperPath(consumer: consumer, legacy: Self.databaseShimName),
                contents: databaseWrapper(shimName: shimName, access: access, imports: imports, marker: marker)))
            files.append(try databaseMock(shimName: shimName, shimText: shim, shimPath: shimPath, generator: generator))
        }
        let entryPoints = legacyOverloads()
        if !production.initializers.isEmpty || !entryPoints.isEmpty {
            files.append(GeneratedFile(
                path: layout.productionPath(consumer: consumer),
                contents: productionFile(production, overloads: entryPoints, imports: imports, marker: marker)))
        }
        // The pairs' files; the namespaces list every shim of the consumer.
        let listed = (generator.generatedLegacies(of: consumer)
            + generator.migratedShims(of: consumer) + legacies).reduce(into: [String]()) { all, legacy in
                if !all.contains(legacy) { all.append(legacy) }
            }.sorted()
        let namespacePaths = [layout.shortcutsNamespacePath(consumer: consumer), layout.mocksNamespacePath(consumer: consumer)]
        for legacy in pairs {
            guard let finder = context.finderProperties.values.first(where: { $0.legacyType == legacy }) else { continue }
            for file in generator.render(finder.plan, alongside: listed) where !namespacePaths.contains(file.path) {
                files.append(file)
            }
        }
        var accesses = generator.shimAccesses(of: consumer)
        for finder in context.finderProperties.values {
            accesses[finder.legacyType] = finder.plan.accessLevel(configuration: configuration)
        }
        accesses[Self.databaseShimName] = databaseShimAccess
        let namespaces = NamespaceRenderer(consumer: consumer, legacies: listed, accesses: accesses)
        files.append(GeneratedFile(
            path: namespacePaths[0],
            contents: namespaces.shortcuts(access: min(configuration.accessLevel, context.consumer.accessLevel).modifier)))
        files.append(GeneratedFile(path: namespacePaths[1], contents: namespaces.mocks(imports: configuration.mockImports)))
        return files
    }

    /// The `Database` shim's access: `txkit.json`'s, narrowed to the
    /// consumer's and to the types its requirements name.
    var databaseShimAccess: AccessLevel {
        let named = context.requirements.flatMap { $0.parameters.map(\.type) + [$0.resultType] }
        var access = min(context.configuration.accessLevel, context.consumer.accessLevel, context.index.narrowestAccess(of: named))
        for finder in context.finderProperties.values
        where named.contains(where: { $0.hasSuffix(".Shims.\(finder.legacyType)") }) {
            access = min(access, finder.plan.accessLevel(configuration: context.configuration))
        }
        return access
    }

    /// The modules the consumer's files import, without the database
    /// library, and TransactionKit.
    private func consumerImports() -> [String] {
        var modules: [String] = []
        for module in context.consumer.imports where !context.configuration.excludedImports.contains(module) {
            if !modules.contains(module) { modules.append(module) }
        }
        if !modules.contains("TransactionKit") { modules.append("TransactionKit") }
        return modules.sorted()
    }

    // MARK: Database shim

    private func databaseShim(name: String, access: String, imports: [String], marker: String) -> String {
        let consumer = context.consumer.name
        var lines = [marker, ""] + imports.map { "import \($0)" } + [
            "",
            "/// What ``\(consumer)`` did with the database itself (records, the query",
            "/// interface, SQL), moved out of it by `txkit migrate`: one requirement per",
            "/// piece of code, its variables as parameters. `\(consumer).Shims.\(Self.databaseShimName)`.",
            "///",
            "/// Production passes ``\(consumer)_\(Self.databaseShimName)Wrapper``, which holds the code;",
            "/// unit tests pass `\(consumer).Mocks.\(Self.databaseShimName)`.",
            "\(access)protocol \(name)\(databaseShimIsSendable ? ": Sendable" : "") {",
        ]
        for (position, requirement) in context.requirements.enumerated() {
            if position > 0 { lines.append("") }
            lines.append("    /// \(requirement.summary).")
            lines.append("    " + requirement.signature)
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func databaseWrapper(shimName: String, access: String, imports: [String], marker: String) -> String {
        let consumer = context.consumer.name
        var modules = Set(imports)
        modules.formUnion(context.consumer.imports)
        modules.formUnion(context.configuration.wrapperImports)
        modules.insert("TransactionKit")
        var lines = [marker, ""] + modules.sorted().map { "import \($0)" } + [
            "",
            "/// ``\(shimName)`` on the app's database: each requirement runs the code",
            "/// ``\(consumer)`` ran, on the legacy transaction bridged from the TransactionKit one.",
            "///",
            "/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse: unit",
            "///   tests pass `\(consumer).Mocks.\(Self.databaseShimName)` instead.",
            "\(access)struct \(consumer)_\(Self.databaseShimName)Wrapper: \(shimName) {",
        ]
        if let holder = context.requirements.compactMap(\.holder).first {
            let property = SwiftText.lowercasedFirst(holder)
            lines += [
                "    private let \(property): \(holder)",
                "",
                "    /// Creates the wrapper, which calls `\(property)` where \(consumer) did.",
                "    \(access)init(\(property): \(holder)) {",
                "        self.\(property) = \(property)",
                "    }",
            ]
        } else {
            lines += ["    /// Creates the wrapper.", "    \(access)init() {}"]
        }
        for requirement in context.requirements {
            lines.append("")
            lines.append("    \(access)" + requirement.signature + " {")
            if requirement.takesTransaction, requirement.body.contains(where: { TypeText.identifiers(in: $0).contains(requirement.legacyName) }) {
                lines.append("        let \(requirement.legacyName) = \(bridge(for: requirement))")
            }
            lines += requirement.body.map { $0.isEmpty ? "" : "        " + $0 }
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// How the wrapper builds the legacy transaction from `tx`: for a
    /// requirement that reads, code that ran in an app's write transaction
    /// class (`WriteTx`) gets the read class it inherits from (`ReadTx`),
    /// so that a read transaction is never made a write one.
    private func bridge(for requirement: InlineRequirement) -> String {
        if let configured = context.legacyTransaction(requirement.legacyType) {
            return configured.bridge.replacingOccurrences(of: "$tx", with: "tx")
        }
        return "try SQLiteDB.shimOnlyBridge(tx)"
    }

    /// The `Database` shim's mock, written as `txkit mock` writes one (so
    /// that `txkit mock --all` keeps it current), from the protocol as
    /// written beside the sources.
    private func databaseMock(shimName: String, shimText: String, shimPath: String, generator: Generator) throws -> GeneratedFile {
        let file = try SourceFile(path: shimPath, text: shimText)
        let mockGenerator = Generator(configuration: context.configuration, sources: SourceSet(files: generator.index.sources.files + [file]))
        let mockName = GeneratedLayout.mockName(consumer: context.consumer.name, legacy: Self.databaseShimName)
        let mock = try mockGenerator.mock(protocol: shimName, mockName: mockName)
        return GeneratedFile(
            path: GeneratedLayout(context.configuration).mockPath(consumer: context.consumer.name, legacy: Self.databaseShimName),
            contents: mock.contents)
    }

    // MARK: Production

    private func productionFile(_ production: Production, overloads: [String], imports: [String], marker: String) -> String {
        let consumer = context.consumer.name
        var modules = Set(context.consumer.imports)
        modules.formUnion(["TransactionKit", "TransactionKitSQLite"])
        var lines = [marker, ""] + modules.sorted().map { "import \($0)" } + [
            "",
            "/// ``\(consumer)`` as its callers knew it before `txkit migrate`: these entry",
            "/// points build what the migrated code takes from what they receive (the",
            "/// adopted database, the wrappers) and call it. Unit tests call the migrated",
            "/// initializer with a `MockDB` and mocks instead. Delete one once no caller",
            "/// uses it.",
            "extension \(context.consumer.qualifiedName) {",
        ]
        var first = true
        for text in production.initializers + overloads {
            if !first { lines.append("") }
            first = false
            lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each method that took a legacy transaction, for callers that still
    /// hold one: it bridges the transaction and calls the migrated method.
    private func legacyOverloads() -> [String] {
        legacyEntryPoints.compactMap { entry -> String? in
            let function = entry.function
            guard !function.modifiers.contains(where: { $0.name.text == "private" || $0.name.text == "fileprivate" }) else {
                return nil
            }
            let parameters = Array(function.signature.parameterClause.parameters)
            let arguments = parameters.enumerated().map { index, parameter -> String in
                let name = (parameter.secondName ?? parameter.firstName).text
                let label = parameter.firstName.text == "_" ? "" : parameter.firstName.text + ": "
                let isInout = parameter.type.trimmedDescription.hasPrefix("inout ")
                if index == entry.position {
                    return label + reverseBridge(entry, legacy: name)
                }
                return label + (isInout ? "&" : "") + name
            }
            let column = function.startLocation(converter: entry.file.converter).column - 1
            let signature = dedented(String(function.trimmedDescription.prefix { $0 != "{" }).trimmingWhitespace, by: column)
            let effects = function.signature.effectSpecifiers
            let call = (effects?.asyncSpecifier != nil ? "await " : "") + "\(function.name.text)(\(arguments.joined(separator: ", ")))"
            if effects?.throwsClause != nil {
                return signature + " {\n    try " + call + "\n}"
            }
            // The bridge throws only under a test runner, once it recorded the
            // misuse as a failure: the run goes on, as it does with a `throws`.
            let returnsValue = function.signature.returnClause != nil
            return signature + " {\n    do {\n        \(returnsValue ? "return " : "")try " + call + "\n    } catch {\n"
                + (returnsValue
                    ? "        fatalError(\"TransactionKit recorded a misuse of this transaction: \\(error)\")\n"
                    : "        return\n")
                + "    }\n}"
        }
    }

    private func reverseBridge(_ entry: LegacyEntryPoint, legacy: String) -> String {
        if let configured = context.legacyTransaction(entry.legacyType), configured.reverseBridge != nil {
            return configured.reverseBridge(for: entry.kind, legacy: legacy)
        }
        return entry.kind == .write ? "SQLiteDB.writeTransaction(bridging: \(legacy))" : "SQLiteDB.readTransaction(bridging: \(legacy))"
    }
}
#endif
