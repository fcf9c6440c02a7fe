#if Txkit
import SwiftSyntax

/// The consumer's stored properties and initializers: the database handle
/// becomes `db: any DB`, finders their shims, and the initializer takes
/// them; the initializer callers used stays, as production wiring.
extension ConsumerMigration {
    /// What the production file holds: the initializers callers used,
    /// rewritten to call the migrated one.
    struct Production {
        var initializers: [String] = []
    }

    /// The stored properties that only open transactions: they go.
    func replacedProperties() -> [String] {
        var roots: [String: Bool] = [:]
        for block in blocks {
            guard let root = handleRoot(block.receiver, file: block.file), let property = root.property else { continue }
            roots[property] = root.expression == property
        }
        return roots.keys.filter { property in
            references(to: property).allSatisfy { reference in
                blocks.contains { block in
                    block.receiver.positionAfterSkippingLeadingTrivia <= reference.positionAfterSkippingLeadingTrivia
                        && reference.endPositionBeforeTrailingTrivia <= block.receiver.endPositionBeforeTrailingTrivia
                }
            }
        }.sorted()
    }

    /// The references to a stored property in the consumer's code, outside
    /// its initializers' `self.x = …` and the property's declaration.
    func references(to property: String) -> [DeclReferenceExprSyntax] {
        var found: [DeclReferenceExprSyntax] = []
        for declaration in context.consumer.declarations where declaration.file.generatedBy == nil {
            for reference in declaration.memberBlock.descendants(DeclReferenceExprSyntax.self) where reference.baseName.text == property {
                if let member = reference.parent?.as(MemberAccessExprSyntax.self) {
                    if member.declName.id == reference.id, member.base?.trimmedDescription != "self" { continue }
                }
                if LocalScope.declarations(visibleAt: reference)[property] != nil { continue }
                if isInitializerAssignment(reference) { continue }
                if computedHandle(property) != nil, reference.ancestor(PatternBindingSyntax.self, below: Syntax(declaration.memberBlock)) != nil {
                    continue
                }
                // The production initializer builds the collaborator now.
                if let binding = reference.ancestor(PatternBindingSyntax.self, below: Syntax(declaration.memberBlock)),
                   let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                   context.collaboratorProperties[name] != nil {
                    continue
                }
                found.append(reference)
            }
        }
        return found
    }

    /// `self.x = …` in an initializer.
    private func isInitializerAssignment(_ reference: DeclReferenceExprSyntax) -> Bool {
        guard reference.ancestor(InitializerDeclSyntax.self, below: Syntax(reference.root)) != nil,
              let member = reference.parent?.as(MemberAccessExprSyntax.self), member.base?.trimmedDescription == "self",
              let sequence = member.parent?.parent?.as(SequenceExprSyntax.self),
              Array(sequence.elements).count == 3, Array(sequence.elements)[0].id == member.id,
              Array(sequence.elements)[1].is(AssignmentExprSyntax.self)
        else { return false }
        return true
    }

    /// Retypes and replaces stored properties, splits the initializer, and
    /// returns the production initializers.
    mutating func migrateStoredProperties() -> Production {
        var production = Production()
        let replaced = Set(replacedProperties())
        let allRoots = blocks.compactMap { block in handleRoot(block.receiver, file: block.file).map { (block, $0) } }
        // A holder call on a global holder reads it in its requirement: it needs no database.
        let roots = allRoots.filter { block, root in
            guard case .holderCall = block.style else { return true }
            return !root.isGlobal
        }
        // Every block must reach the same database.
        var databaseExpressions: [String: (TransactionBlock, HandleRoot)] = [:]
        for (block, root) in roots where databaseExpressions[root.expression] == nil {
            databaseExpressions[root.expression] = (block, root)
        }
        if Set(roots.map(\.1.expression)).count > 1 {
            let (block, _) = roots[1]
            refuse(block.receiver, in: block.file,
                   "\(context.consumer.name) opens transactions on more than one database (\(Set(roots.map(\.1.expression)).sorted().map { "`\($0)`" }.joined(separator: ", ")))",
                   fix: "give it one database, or split it so that each part uses one, then run migrate again")
            return production
        }
        let root = roots.first(where: { $0.1.binding != nil })?.1 ?? roots.first?.1
        removeBindings(allRoots.map(\.1))
        if let root, root.expression.hasPrefix("local ") {
            let (block, _) = roots[0]
            refuse(block.receiver, in: block.file,
                   "\(context.consumer.name) opens its transaction on a local (`\(root.expression.dropFirst("local ".count))`), found at each call",
                   fix: "hold the database in a stored property set by the initializer, then run migrate again")
            return production
        }
        guard let adopted = root.flatMap({ adoptedDatabase($0) }) ?? (root == nil ? "" : nil) else { return production }

        let dataAccessType = "Shims.Database"
        let declarations = context.consumer.declarations.filter { $0.file.generatedBy == nil }
        let leftovers = needsInitializer(root: root) ? leftoverDatabaseProperties().subtracting(replaced) : []
        removedDatabaseProperties = leftovers
        var insertedDatabase = false
        let access = propertyAccess()
        for declaration in declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self), variable.bindings.count == 1,
                      let binding = variable.bindings.first,
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                else { continue }
                if replaced.contains(name) || (binding.accessorBlock != nil && computedHandle(name) != nil && replacedComputed(name)) {
                    var replacement = ""
                    if !insertedDatabase && !root.isNil {
                        replacement = "\(access)let \(databaseProperty): any DB"
                        if !context.requirements.isEmpty {
                            replacement += "\n" + indentation(of: item, in: declaration.file) + "\(access)let \(context.shimProperty): any \(dataAccessType)"
                        }
                        insertedDatabase = true
                    }
                    edit(declaration.file, TextEdit(
                        start: item.positionAfterSkippingLeadingTrivia.utf8Offset,
                        end: item.endPositionBeforeTrailingTrivia.utf8Offset, replacement: replacement))
                    continue
                }
                if leftovers.contains(name) {
                    // With its doc comment and the line it was on.
                    edit(declaration.file, TextEdit(
                        start: item.position.utf8Offset, end: item.endPositionBeforeTrailingTrivia.utf8Offset, replacement: ""))
                    continue
                }
                if let collaborator = context.collaboratorProperties[name] {
                    let modifiers = variable.modifiers.filter { $0.name.text != "lazy" }.map { $0.trimmedDescription + " " }.joined()
                    edit(declaration.file, TextEdit(
                        start: variable.positionAfterSkippingLeadingTrivia.utf8Offset,
                        end: variable.endPositionBeforeTrailingTrivia.utf8Offset,
                        replacement: "\(variable.attributes.isEmpty ? "" : variable.attributes.trimmedDescription + " ")\(modifiers)let \(name): \(collaborator.type)"))
                    continue
                }
                if let finder = context.finderProperties[name] {
                    let shim = finder.shimType
                    if case let .weak(reference) = finder.holding {
                        replaceWeakFinder(variable, name: name, finder: finder, reference: reference, in: declaration)
                    } else if let reference = variable.modifiers.first(where: { ["weak", "unowned"].contains($0.name.text) }) {
                        refuse(binding, in: declaration.file,
                               "`\(name)` is \(reference.name.text == "weak" ? "a weak" : "an unowned") reference to \(finder.legacyType), which its shim's wrapper would hold strongly",
                               fix: "declare it `\(reference.name.text == "weak" ? "weak var \(name): \(finder.legacyType)?" : "let \(name): \(finder.legacyType)")`, then run migrate again")
                    } else if let initializer = binding.initializer {
                        // Built by the production initializer now, and injected.
                        let modifiers = variable.modifiers.filter { $0.name.text != "lazy" }.map { $0.trimmedDescription + " " }.joined()
                        edit(declaration.file, TextEdit(
                            start: variable.positionAfterSkippingLeadingTrivia.utf8Offset,
                            end: variable.endPositionBeforeTrailingTrivia.utf8Offset,
                            replacement: "\(variable.attributes.isEmpty ? "" : variable.attributes.trimmedDescription + " ")\(modifiers)let \(name): \(shim)"))
                        initializedFinders[name] = initializer.value.trimmedDescription
                    } else if let annotation = binding.typeAnnotation {
                        edit(declaration.file, TextEdit(
                            start: annotation.type.positionAfterSkippingLeadingTrivia.utf8Offset,
                            end: annotation.type.endPositionBeforeTrailingTrivia.utf8Offset, replacement: shim))
                    }
                }
            }
        }
        if !insertedDatabase, root != nil, let first = firstStoredProperty(declarations, skipping: leftovers) {
            var text = "\(access)let \(databaseProperty): any DB\n" + indentation(of: first.0, in: first.1)
            if !context.requirements.isEmpty {
                text += "\(access)let \(context.shimProperty): any \(dataAccessType)\n" + indentation(of: first.0, in: first.1)
            }
            edit(first.1, TextEdit(
                start: first.0.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: first.0.positionAfterSkippingLeadingTrivia.utf8Offset, replacement: text))
        } else if root == nil, !context.requirements.isEmpty, let first = firstStoredProperty(declarations, skipping: leftovers) {
            edit(first.1, TextEdit(
                start: first.0.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: first.0.positionAfterSkippingLeadingTrivia.utf8Offset,
                replacement: "\(access)let \(context.shimProperty): any \(dataAccessType)\n" + indentation(of: first.0, in: first.1)))
        }
        production.initializers = splitInitializers(replaced: replaced, removed: leftovers, root: root, adopted: adopted)
        return production
    }

    /// The production lookup of the adopter of a GRDB handle of type
    /// `core`: `SQLiteDB.adopter(of:)` for a writer (or for a reader whose
    /// expression is the writer: `appDatabase.reader { dbWriter }`),
    /// `SQLiteDB.adopter(ofReader:)` for an `any DatabaseReader`, which is
    /// the pool or queue itself. Other readers (`AnyDatabaseReader`,
    /// snapshots) are not what an `SQLiteDB` adopts: refused.
    private mutating func adopterLookup(_ core: String, of root: HandleRoot) -> String? {
        let writes = blocks.contains { block in
            guard let type = context.typer.type(of: block.receiver) else { return false }
            return GRDBVocabulary.handleTypes[SourceIndex.coreTypeName(type)] == true
        }
        if GRDBVocabulary.handleTypes[core] == true || writes { return "SQLiteDB.adopter(of: $handle)" }
        if core == "DatabaseReader" { return "SQLiteDB.adopter(ofReader: $handle)" }
        refuse(Refusal(.cannotMigrate, at: location(of: context.consumer),
            "\(context.consumer.name) reads through `\(root.expression)`, a \(core), which is not the pool or queue an `SQLiteDB` adopts, so the migrated code would find no database",
            fix: "hold the app's pool or queue as `any DatabaseReader` (or `any DatabaseWriter`), then run migrate again"))
        return nil
    }

    /// `weak var store: Store?` → the shim, optional, through a stored
    /// `WeakReference` of the pair's wrapper, which holds the production
    /// instance weakly (the property reads `nil` once it is released, as
    /// before) and a test's mock strongly.
    private mutating func replaceWeakFinder(
        _ variable: VariableDeclSyntax, name: String, finder: MigrationContext.FinderProperty, reference: String,
        in declaration: TypeDeclaration
    ) {
        let indent = indentation(of: variable, in: declaration.file)
        let modifiers = variable.modifiers.filter { $0.name.text != "weak" }.map { $0.trimmedDescription + " " }.joined()
        let type = weakReferenceType(of: finder)
        edit(declaration.file, TextEdit(
            start: variable.positionAfterSkippingLeadingTrivia.utf8Offset, end: variable.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: [
                "\(modifiers)var \(name): \(finder.shimType) {",
                "\(indent)    get { \(reference).shim }",
                "\(indent)    set { \(reference) = \(type)(newValue) }",
                "\(indent)}",
                "\(indent)private var \(reference) = \(type)()",
            ].joined(separator: "\n")))
    }

    /// `C.Wrappers.Store.WeakReference`.
    func weakReferenceType(of finder: MigrationContext.FinderProperty) -> String {
        GeneratedLayout.wrapperReference(consumer: context.consumer.name, legacy: finder.legacyType) + "." + ShimPlan.weakReferenceTypeName
    }

    /// Deletes the statements that bound a local to the database
    /// (`guard let database = Env.current.database else { … }`): the
    /// migrated code has `db`; the production lookup keeps the statement.
    private mutating func removeBindings(_ roots: [HandleRoot]) {
        var removed: Set<SyntaxIdentifier> = []
        for root in roots {
            guard let binding = root.binding, let name = root.bindingName, removed.insert(binding.id).inserted,
                  let file = blocks.first(where: { LocalDeclaration.isInside(binding, $0.file.tree) })?.file
            else { continue }
            let list = binding.parent
            let uses = list?.descendants(DeclReferenceExprSyntax.self).filter { reference in
                reference.baseName.text == name && !FreeVariables.isMemberName(reference)
                    && reference.position > binding.endPosition
                    && !blocks.contains { LocalDeclaration.isInside(reference, $0.receiver) }
            } ?? []
            if !uses.isEmpty {
                refuse(binding, in: file, "`\(name)`, the database bound here, is used for more than opening transactions",
                       fix: "use it only to open transactions, then run migrate again")
                continue
            }
            let start = binding.positionAfterSkippingLeadingTrivia.utf8Offset, end = binding.endPositionBeforeTrailingTrivia.utf8Offset
            // Code moved whole into a requirement (a method whose block
            // yields a GRDB value) is replaced with its binding.
            if textEdits[file.path]?.edits.contains(where: { $0.start < $0.end && $0.start <= start && end <= $0.end }) == true { continue }
            edit(file, TextEdit(start: binding.position.utf8Offset, end: end, replacement: ""))
        }
    }

    private func replacedComputed(_ name: String) -> Bool {
        references(to: name).allSatisfy { reference in
            blocks.contains { block in
                block.receiver.positionAfterSkippingLeadingTrivia <= reference.positionAfterSkippingLeadingTrivia
                    && reference.endPositionBeforeTrailingTrivia <= block.receiver.endPositionBeforeTrailingTrivia
            }
        }
    }

    /// `private ` for the new properties, or the access the replaced handle
    /// property had.
    private func propertyAccess() -> String {
        "private "
    }

    /// The first stored property, other than the `skipped` ones, or the
    /// first member: where the new properties go.
    private func firstStoredProperty(_ declarations: [TypeDeclaration], skipping skipped: Set<String>) -> (MemberBlockItemSyntax, SourceFile)? {
        for declaration in declarations where !declaration.isExtension {
            for item in declaration.memberBlock.members {
                if let variable = item.decl.as(VariableDeclSyntax.self),
                   !variable.modifiers.contains(where: { $0.name.text == "static" }),
                   !variable.bindings.contains(where: { skipped.contains($0.pattern.trimmedDescription) }),
                   variable.bindings.allSatisfy({ $0.accessorBlock == nil }) {
                    return (item, declaration.file)
                }
            }
            let kept = declaration.memberBlock.members.first { item in
                !(item.decl.as(VariableDeclSyntax.self)?.bindings.contains { skipped.contains($0.pattern.trimmedDescription) } ?? false)
            }
            if let kept { return (kept, declaration.file) }
        }
        return nil
    }

    func indentation(of node: some SyntaxProtocol, in file: SourceFile) -> String {
        String(repeating: " ", count: file.converter.location(for: node.positionAfterSkippingLeadingTrivia).column - 1)
    }

    /// The expression that gives the production `any DB` from the
    /// receiver's value `$handle`: the adopter of a GRDB pool or queue, or
    /// the holder's property that holds its adopting `SQLiteDB`. `nil`
    /// (refused) when the holder adopts nothing.
    private mutating func adoptedDatabase(_ root: HandleRoot) -> String? {
        let core = SourceIndex.coreTypeName(root.type)
        if root.isGlobal, GRDBVocabulary.handleTypes[core] == nil || root.binding != nil {
            // Read again at each transaction, as the consumer read it.
            let adopted: String
            if GRDBVocabulary.handleTypes[core] != nil {
                // `database.dbWriter` of a global holder: the `SQLiteDB` it holds.
                guard let holder = root.bindingType.flatMap({ context.index.types[SourceIndex.coreTypeName($0)] }),
                      let property = DatabaseHolder.adoptedProperty(of: holder)
                else {
                    refuse(Refusal(.cannotMigrate, at: location(of: context.consumer),
                        "\(context.consumer.name) opens its transactions on `\(root.expression)`, whose holder holds no `SQLiteDB` adopting it, so the migrated \(context.consumer.name) would have no database",
                        fix: "give the holder `let sqlite: SQLiteDB`, set after its migrations with `sqlite = try SQLiteDB(adopting: <its pool>)`, then run migrate again"))
                    return nil
                }
                adopted = "$handle.\(property)"
            } else {
                guard let found = adoptedDatabase(HandleRoot(property: nil, expression: root.expression, type: root.type)) else { return nil }
                adopted = found
            }
            if let binding = root.binding, let name = root.bindingName {
                let value = adopted.replacingOccurrences(of: "$handle", with: name)
                let file = blocks.first { LocalDeclaration.isInside(binding, $0.file.tree) }?.file
                let column = file.map { binding.startLocation(converter: $0.converter).column - 1 } ?? 0
                let text = dedented(binding.trimmedDescription, by: column)
                return "SQLiteDB.deferred {\n    \(text.replacingOccurrences(of: "\n", with: "\n    "))\n    return \(value)\n}"
            }
            return "SQLiteDB.deferred { \(adopted) }"
        }
        if GRDBVocabulary.handleTypes[core] != nil {
            guard checkAdoption(of: root) else { return nil }
            guard context.index.adoptsAPool else {
                refuse(Refusal(.cannotMigrate, at: location(of: context.consumer),
                    "no file of the sources adopts the app's \(core) (`SQLiteDB(adopting:)`), so the migrated \(context.consumer.name) would have no database at run time",
                    fix: "where the app opens it, after its migrations, add `let sqlite = try SQLiteDB(adopting: \(root.expression))` (Guides/MigratingLegacyFinders.md, \"Adopt the app's pool\") and keep it, then run migrate again"))
                return nil
            }
            return adopterLookup(core, of: root)
        }
        guard let holderType = context.index.types[core], let holder = DatabaseHolder(holderType, context: context) else {
            return nil
        }
        guard let adopted = holder.adoptedProperty else {
            refuse(Refusal(.cannotMigrate, at: location(of: holderType),
                "\(core) opens the app's transactions but holds no `SQLiteDB` adopting its pool, so the migrated \(context.consumer.name) would have no database",
                fix: "add to \(core) `public let sqlite: SQLiteDB` and set it after the migrations with `sqlite = try SQLiteDB(adopting: <its pool>)` (Guides/MigratingLegacyFinders.md, \"Adopt the app's pool\"), then run migrate again"))
            return nil
        }
        return "$handle.\(adopted)"
    }
}

private extension Optional {
    var isNil: Bool { self == nil }
}
#endif
