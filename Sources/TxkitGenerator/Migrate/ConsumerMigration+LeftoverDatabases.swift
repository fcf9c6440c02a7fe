#if Txkit
import SwiftSyntax

/// The databases a consumer held and no longer reads once migrated: a
/// TransactionKit one beside its GRDB handle (`let sqlite: SQLiteDB`, kept
/// to bridge its blocks), or the app's holder or GRDB handle of a consumer
/// whose methods receive their transactions (`let appDatabase:
/// AppDatabase`). They and their initializer parameters go (the
/// production initializer still takes what callers pass). A consumer that
/// keeps one consumes a concrete database, and a test cannot build it on
/// a `MockDB`.
extension ConsumerMigration {
    /// TransactionKit's concrete databases.
    static let concreteDatabaseTypes: Set<String> = ["SQLiteDB", "PostgresDB"]

    /// Whether `type` is a database: a concrete TransactionKit one, a
    /// GRDB handle, or a type of the sources that holds one (the app's
    /// `AppDatabase`).
    private func isDatabase(_ type: String) -> Bool {
        let core = SourceIndex.coreTypeName(type)
        if Self.concreteDatabaseTypes.contains(core) || GRDBVocabulary.handleTypes[core] != nil { return true }
        guard let declared = context.index.types[core], declared.kind == .class || declared.kind == .struct || declared.kind == .actor
        else { return false }
        return DatabaseHolder.adoptedProperty(of: declared) != nil || declared.members.contains { member in
            guard case .property = member.kind, !member.isStatic, let result = member.resultType else { return false }
            return GRDBVocabulary.handleTypes[SourceIndex.coreTypeName(result)] != nil
        }
    }

    /// The stored properties of a database type (``isDatabase(_:)``)
    /// that the migrated consumer no longer reads: not public, without an
    /// initial value, set only by the consumer's one initializer from one
    /// of its parameters, and read only in code the migration replaces,
    /// by the consumer's code alone.
    func leftoverDatabaseProperties() -> Set<String> {
        let initializers = context.consumer.declarations.filter { $0.file.generatedBy == nil }.flatMap { declaration in
            declaration.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }
        }
        guard initializers.count == 1, let initializer = initializers.first else { return [] }
        let parameterNames = Set(initializer.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
        var found: Set<String> = []
        for declaration in context.consumer.declarations where declaration.file.generatedBy == nil {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self), variable.bindings.count == 1,
                      let binding = variable.bindings.first, binding.accessorBlock == nil, binding.initializer == nil,
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let type = binding.typeAnnotation?.type.trimmedDescription,
                      isDatabase(type),
                      !variable.modifiers.contains(where: { ["static", "class", "public", "open"].contains($0.name.text) })
                else { continue }
                let assigned = assignments(in: initializer).filter { $0.0 == name }
                guard !assigned.isEmpty, assigned.allSatisfy({ parameterNames.contains($0.1.trimmedDescription) }),
                      references(to: name).allSatisfy({ isReplaced($0, named: name) }),
                      !isReadOutside(name)
                else { continue }
                found.insert(name)
            }
        }
        return found
    }

    /// Whether an edit replaces the code around `reference` by text that
    /// does not name it.
    private func isReplaced(_ reference: DeclReferenceExprSyntax, named name: String) -> Bool {
        let start = reference.positionAfterSkippingLeadingTrivia.utf8Offset, end = reference.endPositionBeforeTrailingTrivia.utf8Offset
        let fileEdits = context.consumer.declarations.first { $0.file.tree.id == reference.root.id }
            .flatMap { textEdits[$0.file.path]?.edits } ?? []
        return fileEdits.contains { edit in
            edit.start <= start && end <= edit.end && !TypeText.identifiers(in: edit.replacement).contains(name)
        }
    }

    /// Whether code outside the consumer may read its property `name`: a
    /// member access of that name on a value the typer does not know to
    /// be of another type, in a file that names the consumer.
    private func isReadOutside(_ name: String) -> Bool {
        let naming = Set(context.index.sources.filesMentioning(context.consumer.name).map(\.path))
        for file in context.index.sources.filesMentioning(name) where file.generatedBy == nil && naming.contains(file.path) {
            for member in file.tree.descendants(MemberAccessExprSyntax.self) where member.declName.baseName.text == name {
                if context.consumer.declarations.contains(where: { $0.file.path == file.path && LocalDeclaration.isInside(member, $0.memberBlock) }) {
                    continue
                }
                guard let base = member.base else { return true }
                if base.trimmedDescription == "self" { continue }
                guard let type = context.typer.type(of: base) else { return true }
                if SourceIndex.coreTypeName(type) == context.consumer.name { return true }
            }
        }
        return false
    }
}
#endif
