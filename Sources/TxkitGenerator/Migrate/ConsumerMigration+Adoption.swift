#if Txkit
import SwiftSyntax

/// Whether the GRDB pool or queue a consumer runs on is adopted, followed
/// from where the consumer gets it: its initializer's default value and
/// the arguments its callers pass (`DatabaseManager.shared.dbQueue`,
/// `manager.dbQueue`), back to the property of the type that holds it,
/// which must adopt it (`SQLiteDB(adopting: dbQueue)` in that type).
/// Migrated code on a pool nobody adopted would build and then fail, so a
/// pool found that way and not adopted is refused, with the line to add.
extension ConsumerMigration {
    /// A property of a type of the sources that holds a GRDB pool or queue.
    struct PoolProperty: Hashable {
        var holder: String
        var property: String
    }

    /// Refuses when a pool the consumer receives is held by a property that
    /// no `SQLiteDB(adopting:)` adopts; `true` when nothing was refused.
    mutating func checkAdoption(of root: HandleRoot) -> Bool {
        guard let property = root.property else { return true }
        var origins: [ExprSyntax] = []
        for declaration in context.consumer.declarations where declaration.file.generatedBy == nil {
            for item in declaration.memberBlock.members {
                guard let initializer = item.decl.as(InitializerDeclSyntax.self) else { continue }
                for statement in initializer.body?.statements ?? [] {
                    // `self.dbQueue = dbQueue`: the parameter's default, and the callers' arguments.
                    guard let sequence = statement.item.as(SequenceExprSyntax.self), sequence.elements.count == 3,
                          Array(sequence.elements)[0].trimmedDescription.replacingOccurrences(of: "self.", with: "") == property,
                          let value = Array(sequence.elements)[2].as(DeclReferenceExprSyntax.self),
                          let parameter = initializer.signature.parameterClause.parameters.first(where: {
                              ($0.secondName ?? $0.firstName).text == value.baseName.text
                          })
                    else { continue }
                    if let defaultValue = parameter.defaultValue?.value { origins.append(defaultValue) }
                    origins += callerArguments(label: parameter.firstName.text)
                }
            }
        }
        var unadopted: [(PoolProperty, SourceLocation)] = []
        for origin in origins {
            guard let pool = poolProperty(origin, depth: 0), let holder = context.index.types[pool.holder] else { continue }
            if !adopts(holder, pool.property) {
                unadopted.append((pool, location(of: holder)))
            }
        }
        for (pool, location) in Set(unadopted.map(\.0)).sorted(by: { $0.holder + $0.property < $1.holder + $1.property }).map({ pool in
            (pool, unadopted.first { $0.0 == pool }!.1)
        }) {
            refuse(Refusal(.cannotMigrate, at: location,
                "\(context.consumer.name) runs on `\(pool.holder).\(pool.property)`, which no `SQLiteDB(adopting:)` adopts: the migrated code would build, then fail at its first transaction",
                fix: "in \(pool.holder), after its migrations, add `sqlite = try SQLiteDB(adopting: \(pool.property))` with `let sqlite: SQLiteDB` (Guides/MigratingLegacyFinders.md, \"Adopt the app's pool\"), then run migrate again"))
        }
        return unadopted.isEmpty
    }

    /// The arguments callers in the sources pass for `label` to the
    /// consumer's initializer.
    private func callerArguments(label: String) -> [ExprSyntax] {
        var found: [ExprSyntax] = []
        for file in context.index.sources.filesMentioning(context.consumer.name) where file.generatedBy == nil {
            for call in file.tree.descendants(FunctionCallExprSyntax.self) {
                let callee = call.calledExpression.trimmedDescription
                guard callee == context.consumer.name || callee == context.consumer.qualifiedName || callee == "\(context.consumer.name).init"
                else { continue }
                for argument in call.arguments where (argument.label?.text ?? "_") == label {
                    found.append(argument.expression)
                }
            }
        }
        return found
    }

    /// The holder property an expression reads the pool from: `X.shared.dbQueue`,
    /// `manager.dbQueue`, or a local set to one of those.
    private func poolProperty(_ expression: ExprSyntax, depth: Int) -> PoolProperty? {
        guard depth < 4 else { return nil }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
           let baseType = context.typer.type(of: base) {
            let holder = SourceIndex.coreTypeName(TypeText.metatypeInstance(baseType) ?? baseType)
            guard let type = context.index.types[holder] else { return nil }
            let name = member.declName.baseName.text
            let isPool = storedPoolProperties(of: type).contains(name)
            return isPool ? PoolProperty(holder: type.name, property: name) : nil
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self),
           let local = LocalScope.declarations(visibleAt: reference)[reference.baseName.text], let value = local.initializer {
            return poolProperty(value, depth: depth + 1)
        }
        return nil
    }

    /// The stored properties of a type of the sources that hold a GRDB pool or queue.
    private func storedPoolProperties(of type: IndexedType) -> Set<String> {
        var found: Set<String> = []
        for declaration in type.declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings where binding.accessorBlock == nil {
                    let written = binding.typeAnnotation?.type.trimmedDescription ?? ""
                    if GRDBVocabulary.handleTypes[SourceIndex.coreTypeName(written)] != nil,
                       let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                        found.insert(name)
                    }
                }
            }
        }
        return found
    }

    /// Whether the type's code adopts its property `property`
    /// (`SQLiteDB(adopting: property)` or `(adopting: self.property)`).
    private func adopts(_ type: IndexedType, _ property: String) -> Bool {
        type.declarations.contains { declaration in
            declaration.memberBlock.descendants(FunctionCallExprSyntax.self).contains { call in
                call.calledExpression.trimmedDescription == "SQLiteDB"
                    && call.arguments.first.map { argument in
                        argument.label?.text == "adopting"
                            && ["\(property)", "self.\(property)"].contains(argument.expression.trimmedDescription)
                    } == true
            }
        }
    }
}
#endif
