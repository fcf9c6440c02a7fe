#if Txkit
import Foundation
import SwiftParser
import SwiftSyntax

/// `txkit migrate`: what it takes for one consumer to consume only the
/// abstractions, as files to write and edits to its sources.
///
/// After it the consumer holds `any DB` instead of its GRDB pool, queue,
/// writer or app holder; its blocks are `db.read { tx in … }` and
/// `db.write { tx in … }`; the finders it holds are its pair shims; every
/// other piece of its legacy data access is a requirement of its
/// `Database` shim, whose wrapper holds that code as it was written; its
/// methods that received a legacy transaction take a TransactionKit one.
/// Its callers are not touched: the initializer they call, and each
/// method that took a legacy transaction, stay as production entry points
/// in `C+Production.swift`, which build the adopted database from what
/// they receive and call the migrated code.
///
/// It plans everything before it refuses: every place that stops the
/// migration is in ``GeneratorError/refused(_:_:)``.
struct ConsumerMigration {
    /// Files to write (shims, wrappers, mocks, namespaces, production).
    private(set) var files: [GeneratedFile] = []
    /// Edits of the consumer's files.
    private(set) var edits: [ConsumerEdit] = []
    /// What was moved, for the report.
    private(set) var requirements: [InlineRequirement] = []
    /// The pairs whose shims it uses.
    private(set) var pairs: [String] = []
    /// The consumer names nothing of GRDB or of the legacy transactions:
    /// it consumes only the abstractions already.
    private(set) var isAlreadyMigrated = false

    let context: MigrationContext
    var refusals: [Refusal] = []
    var textEdits: [String: (file: SourceFile, edits: [TextEdit])] = [:]
    var blocks: [TransactionBlock] = []
    /// Blocks already on a TransactionKit database whose code bridges
    /// their transaction back to the legacy one.
    var bridgedBlocks: [TransactionBlock] = []
    /// Methods that receive a TransactionKit transaction and bridge it.
    var bridgedMethods: [BridgedMethod] = []
    var legacyEntryPoints: [LegacyEntryPoint] = []
    /// Finder properties that had an initial value (`lazy var finder =
    /// Finder(…)`): the production initializer builds it.
    var initializedFinders: [String: String] = [:]
    /// The concrete TransactionKit databases it held that no code reads
    /// once migrated: removed (``leftoverDatabaseProperties()``).
    var removedDatabaseProperties: Set<String> = []
    /// The TransactionKit database property's name.
    private(set) var databaseProperty = "db"

    init(consumer name: String, generator: Generator) throws {
        let index = generator.index
        let consumer = try index.type(named: name)
        context = MigrationContext(index: index, configuration: generator.configuration, consumer: consumer)
        try plan(generator: generator)
    }

    private mutating func plan(generator: Generator) throws {
        guard context.consumer.kind != nil, context.consumer.kind != .protocol else {
            throw GeneratorError.migrateRefused(consumer: context.consumer.name, [Refusal(.cannotMigrate, at: context.consumer.declarations.first.map { $0.file.sourceLocation(of: $0.memberBlock) }
                    ?? SourceLocation(path: context.consumer.name, line: 1),
                "\(context.consumer.name) is not a class, struct or actor",
                fix: "migrate the types that use it")])
        }
        findFinderProperties()
        findCollaboratorProperties()
        findMigratedMethods()
        findBlocks()
        findBridgedMethods()
        guard !blocks.isEmpty || !bridgedBlocks.isEmpty || !bridgedMethods.isEmpty || !context.migratedMethods.isEmpty else {
            guard refusals.isEmpty else { throw GeneratorError.migrateRefused(consumer: context.consumer.name, refusals) }
            if let (node, file) = firstLegacyName() {
                throw GeneratorError.migrateRefused(consumer: context.consumer.name, [Refusal(.cannotMigrate, at: file.sourceLocation(of: node),
                    "\(context.consumer.name) names `\(node.trimmedDescription)` but opens no transaction txkit reads (on a GRDB pool, queue, writer or reader, or an app holder) and receives no legacy transaction",
                    fix: "open its transactions on the database it holds (`dbQueue.read { db in … }`), then run migrate again")])
            }
            isAlreadyMigrated = true
            return
        }
        chooseDatabaseProperty()
        for block in blocks { migrate(block) }
        for block in bridgedBlocks { migrateBridged(block) }
        for method in bridgedMethods { migrateBridged(method) }
        migrateMethods()
        let production = migrateStoredProperties()
        guard refusals.isEmpty else {
            throw GeneratorError.migrateRefused(consumer: context.consumer.name, refusals)
        }
        try assembleEdits()
        context.keepRequirements(calledIn: edits.map(\.edited))
        requirements = context.requirements
        files = try render(generator: generator, production: production)
    }

    /// The first GRDB or legacy transaction name in the consumer's code.
    private func firstLegacyName() -> (Syntax, SourceFile)? {
        for declaration in context.consumer.declarations where declaration.file.generatedBy == nil {
            for type in declaration.memberBlock.descendants(IdentifierTypeSyntax.self) {
                let name = type.name.text
                if isLegacyTransaction(name) || (GRDBVocabulary.handleTypes[name] != nil && context.index.types[name] == nil) {
                    return (Syntax(type), declaration.file)
                }
            }
        }
        return nil
    }

    // MARK: What the consumer holds

    /// Stored properties holding a legacy finder that a pair can shim.
    private mutating func findFinderProperties() {
        let legacyTypes = legacyTypeNames()
        for (name, type) in storedProperties() {
            let core = context.index.resolvedTypeName(type)
            guard legacyTypes.contains(core), let legacy = context.index.types[core] else { continue }
            // A consumer migrated before takes TransactionKit transactions: no shim.
            if legacy.declarations.contains(where: { $0.file.generatedBy == .migrated(consumer: core) }) { continue }
            let plan: ShimPlan
            do {
                plan = try ShimPlan(consumer: context.consumer, legacy: legacy, configuration: context.configuration)
            } catch {
                if case let GeneratorError.refused(_, found) = error, let first = found.first {
                    context.unshimmableFinders[name] = first
                }
                continue
            }
            context.finderProperties[name] = MigrationContext.FinderProperty(
                legacyType: core, plan: plan, holding: finderHolding(name, type: type, plan: plan))
            if !pairs.contains(core) { pairs.append(core) }
        }
    }

    /// Stored properties whose initial value builds a consumer migrated
    /// before this one with an initializer of its production file: on a
    /// `MockDB` that collaborator would bridge its own transactions to the
    /// app's database, so the migrated consumer receives it instead. A
    /// value that needs `self` stays: only the instance can build it.
    private mutating func findCollaboratorProperties() {
        for declaration in context.consumer.declarations where declaration.file.generatedBy == nil {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self), variable.bindings.count == 1,
                      let binding = variable.bindings.first, binding.accessorBlock == nil,
                      !variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }),
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let value = binding.initializer?.value, let call = value.as(FunctionCallExprSyntax.self),
                      !value.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .keyword(.self) || $0.tokenKind == .keyword(.Self) })
                else { continue }
                let typeName = call.calledExpression.trimmedDescription
                let core = context.index.resolvedTypeName(typeName)
                guard core != context.consumer.name, let collaborator = context.index.types[core],
                      callsProductionInitializer(call, of: collaborator)
                else { continue }
                context.collaboratorProperties[name] = (type: binding.typeAnnotation?.type.trimmedDescription ?? typeName, value: value.trimmedDescription)
            }
        }
    }

    /// Whether `call` matches an initializer of the production file `txkit
    /// migrate` wrote for `type` (its labels in order, defaulted ones
    /// omitted or not).
    private func callsProductionInitializer(_ call: FunctionCallExprSyntax, of type: IndexedType) -> Bool {
        guard call.trailingClosure == nil else { return false }
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        let initializers = type.declarations.filter { $0.file.generatedBy == .migrated(consumer: type.name) }.flatMap { declaration in
            declaration.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }
        }
        return initializers.contains { initializer in
            var remaining = labels[...]
            for parameter in initializer.signature.parameterClause.parameters {
                if remaining.first == parameter.firstName.text {
                    remaining.removeFirst()
                } else if parameter.defaultValue == nil {
                    return false
                }
            }
            return remaining.isEmpty
        }
    }

    /// Types of the sources with a member that takes a legacy transaction.
    private func legacyTypeNames() -> Set<String> {
        var names: Set<String> = []
        for (name, type) in context.index.types where type.name == name {
            if type.allMembers.contains(where: { member in member.parameters.contains { isLegacyTransaction($0.type) } }) {
                names.insert(name)
            }
        }
        return names
    }

    func isLegacyTransaction(_ type: String) -> Bool {
        let core = SourceIndex.coreTypeName(type)
        return core == "Database" || core == "GRDB.Database" || context.legacyTransaction(core) != nil
    }

    /// The consumer's stored properties and their written (or inferred)
    /// types, over its declarations.
    func storedProperties() -> [(String, String)] {
        var found: [(String, String)] = []
        for declaration in context.consumer.declarations where declaration.file.generatedBy == nil {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self),
                      !variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" })
                else { continue }
                for binding in variable.bindings where binding.accessorBlock == nil {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                    if let type = binding.typeAnnotation?.type.trimmedDescription {
                        found.append((name, type))
                    } else if let value = binding.initializer?.value, let type = context.typer.type(of: value) {
                        found.append((name, type))
                    }
                }
            }
        }
        return found
    }

    /// The consumer's methods with a parameter of a legacy transaction type.
    private mutating func findMigratedMethods() {
        for function in consumerFunctions() {
            let parameters = Array(function.signature.parameterClause.parameters)
            guard let position = parameters.firstIndex(where: { isLegacyTransaction($0.type.trimmedDescription) }) else { continue }
            let parameter = parameters[position]
            let kind = function.body.map {
                transactionKind(
                    forParameter: SourceIndex.coreTypeName(parameter.type.trimmedDescription),
                    named: (parameter.secondName ?? parameter.firstName).text, body: $0)
            } ?? .write
            context.migratedMethods.append(MigrationContext.MigratedMethod(
                name: function.name.text,
                labels: parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text },
                position: position, function: function.id, kind: kind))
        }
        promoteCallersOfWritingMethods()
    }

    /// The name of the consumer's own method `call` calls (`m0(…)`,
    /// `self.m0(…)`), if it calls one that way.
    static func ownCallee(of call: FunctionCallExprSyntax) -> String? {
        call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? call.calledExpression.as(MemberAccessExprSyntax.self).flatMap { $0.base?.trimmedDescription == "self" ? $0.declName.baseName.text : nil }
    }

    /// A method that passes its transaction on to one of the consumer's
    /// methods that writes writes too (`func m1(db:) { m0(db: db) }`), to
    /// the end of such chains.
    private mutating func promoteCallersOfWritingMethods() {
        let functions = Dictionary(consumerFunctions().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var changed = true
        while changed {
            changed = false
            for (index, method) in context.migratedMethods.enumerated() where method.kind == .read {
                guard let function = functions[method.function], let body = function.body else { continue }
                let parameter = Array(function.signature.parameterClause.parameters)[method.position]
                // A transaction type configured as read stays read.
                guard context.legacyTransaction(SourceIndex.coreTypeName(parameter.type.trimmedDescription))?.transaction != .read
                else { continue }
                let name = (parameter.secondName ?? parameter.firstName).text
                let writes = body.descendants(FunctionCallExprSyntax.self).contains { call in
                    guard let position = call.arguments.firstIndex(where: { $0.expression.trimmedDescription == name }) else { return false }
                    let callee = Self.ownCallee(of: call)
                    let labels = call.arguments.map { $0.label?.text }
                    let offset = call.arguments.distance(from: call.arguments.startIndex, to: position)
                    return context.migratedMethods.contains {
                        $0.kind == .write && $0.name == callee && $0.labels == labels && $0.position == offset
                    }
                }
                if writes {
                    context.migratedMethods[index].kind = .write
                    changed = true
                }
            }
        }
    }

    func consumerFunctions() -> [FunctionDeclSyntax] {
        context.consumer.declarations.filter { $0.file.generatedBy == nil }.flatMap { declaration in
            declaration.memberBlock.members.compactMap { $0.decl.as(FunctionDeclSyntax.self) }
        }
    }

    private mutating func chooseDatabaseProperty() {
        let taken = Set(context.consumer.allMembers.map(\.name))
        let replaced = Set(replacedProperties())
        databaseProperty = ["db", "database", "transactions"].first { !taken.contains($0) || replaced.contains($0) } ?? "migratedDB"
    }

    // MARK: Edits

    mutating func edit(_ file: SourceFile, _ edit: TextEdit) {
        textEdits[file.path, default: (file, [])].edits.append(edit)
    }

    mutating func refuse(_ node: some SyntaxProtocol, in file: SourceFile, _ reason: String, fix: String) {
        refusals.append(Refusal(.cannotMigrate, at: file.sourceLocation(of: node), reason, fix: fix))
    }

    mutating func refuse(_ refusal: Refusal) {
        refusals.append(refusal)
    }

    func location(of type: IndexedType) -> SourceLocation {
        type.declarations.first.map { $0.file.sourceLocation(of: $0.memberBlock.parent ?? Syntax($0.memberBlock)) }
            ?? SourceLocation(path: type.name, line: 1)
    }

    /// Runs the extractor on one scope; with `tentatively`, a scope it
    /// cannot migrate leaves nothing behind and returns its refusals.
    @discardableResult
    mutating func extract(_ scope: TransactionScope, tentatively: Bool = false) -> [Refusal] {
        let before = context.requirements
        context.typer.known = [scope.legacyName: scope.legacyType]
        let extractor = LegacyCodeExtractor(context: context, scope: scope)
        extractor.extract()
        if tentatively, !extractor.refusals.isEmpty {
            context.restore(before)
            return extractor.refusals
        }
        refusals += extractor.refusals
        for textEdit in extractor.edits { edit(scope.file, textEdit) }
        for call in extractor.throwingCalls { requireTry(call, in: scope.file) }
        for node in extractor.newlyTried { requireThrowingContext(of: node, in: scope.file) }
        return extractor.refusals
    }

    private mutating func assembleEdits() throws {
        for path in textEdits.keys.sorted() {
            let (file, recorded) = textEdits[path]!
            let fileEdits = Self.withoutRedundantEdits(recorded)
            if let (first, second) = TextEdit.overlappingPairs(fileEdits).first {
                throw GeneratorError.migrateRefused(consumer: context.consumer.name, [Refusal(.cannotMigrate, at: SourceLocation(path: path, line: file.line(at: first.start)),
                    "txkit would edit the same code twice (`\(first.replacement)` and `\(second.replacement)`)",
                    fix: "report it with the file: it is a bug of txkit migrate")])
            }
            let original = file.tree.description
            let edited = editImports(
                TextEdit.apply(fileEdits, to: original), bridged: bridgedBlocks.contains { $0.file.path == path } || bridgedMethods.contains { $0.file.path == path }
                    || !removedDatabaseProperties.isEmpty)
            if edited != original {
                edits.append(ConsumerEdit(path: path, original: original, edited: edited))
            }
        }
    }
}

extension ConsumerMigration {
    /// `text` importing TransactionKit, and no longer GRDB when it names
    /// nothing of GRDB any more; once its `bridged` blocks no longer
    /// bridge, or its `SQLiteDB` went (`bridged` then too), no longer
    /// TransactionKitSQLite when it names nothing of it.
    func editImports(_ text: String, bridged: Bool = false) -> String {
        let tree = Parser.parse(source: text)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let imports = tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self) }
        let modules = imports.map { $0.path.trimmedDescription }
        let converter = SourceLocationConverter(fileName: "", tree: tree)
        let namesGRDB = tree.descendants(DeclReferenceExprSyntax.self).contains { !FreeVariables.isMemberName($0) && isGRDBName($0.baseName.text) }
            || tree.descendants(IdentifierTypeSyntax.self).contains { isGRDBName($0.name.text) }
        var removals: [Int] = []
        if !namesGRDB, let grdb = imports.first(where: { context.configuration.excludedImports.contains($0.path.trimmedDescription) }) {
            removals.append(converter.location(for: grdb.positionAfterSkippingLeadingTrivia).line - 1)
        }
        let namesSQLite = tree.descendants(DeclReferenceExprSyntax.self).contains { $0.baseName.text.hasPrefix("SQLite") }
            || tree.descendants(IdentifierTypeSyntax.self).contains { $0.name.text.hasPrefix("SQLite") }
        if bridged, !namesSQLite, let sqlite = imports.first(where: { $0.path.trimmedDescription == "TransactionKitSQLite" }) {
            removals.append(converter.location(for: sqlite.positionAfterSkippingLeadingTrivia).line - 1)
        }
        if !modules.contains("TransactionKit") {
            let last = imports.last.map { converter.location(for: $0.positionAfterSkippingLeadingTrivia).line } ?? 0
            lines.insert("import TransactionKit", at: last)
            removals = removals.map { $0 >= last ? $0 + 1 : $0 }
        }
        for line in removals.sorted(by: >) { lines.remove(at: line) }
        return lines.joined(separator: "\n")
    }

    private func isGRDBName(_ name: String) -> Bool {
        (GRDBVocabulary.typeNames.contains(name) || GRDBVocabulary.functionNames.contains(name)) && context.index.types[name] == nil
            && !["sum", "total", "average", "length"].contains(name)
    }
}

#endif
