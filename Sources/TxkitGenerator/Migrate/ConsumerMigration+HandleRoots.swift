#if Txkit
import SwiftSyntax

/// How a block's receiver reaches the database: a stored property of the
/// consumer, a computed one expanded to what it returns, a holder's
/// property (`appDatabase.dbWriter`, its computed `reader`), a global, or a
/// local bound to one of these.
extension ConsumerMigration {
    /// How a block's receiver reaches the database, from a property of the
    /// consumer or from a global.
    struct HandleRoot {
        /// The consumer's stored property the receiver starts from, if any.
        var property: String?
        /// The receiver, with computed properties of the consumer expanded.
        var expression: String
        /// The receiver's type (a GRDB handle, or a holder).
        var type: String
        /// The receiver starts from a global (`AppEnvironment.current`),
        /// read again at each call.
        var isGlobal = false
        /// The statement that binds the local the receiver was
        /// (`guard let database = … else { throw … }`), and its name.
        var binding: CodeBlockItemSyntax?
        var bindingName: String?
        /// The type of the value bound, when the receiver reads a handle
        /// on it (`AppDatabase` of `database.dbWriter`).
        var bindingType: String?
    }

    /// A computed property of the consumer whose getter is a handle
    /// expression (`var storage: DatabaseStorage { dependencies.storage }`).
    func computedHandle(_ name: String) -> ExprSyntax? {
        for declaration in context.consumer.declarations where declaration.file.generatedBy == nil {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings where binding.pattern.trimmedDescription == name {
                    guard let accessor = binding.accessorBlock, case let .getter(statements) = accessor.accessors,
                          statements.count == 1, let expression = statements.first?.item.as(ExprSyntax.self)
                    else { continue }
                    return expression
                }
            }
        }
        return nil
    }

    /// The property of `base`'s type that its computed property `name`
    /// returns as it is (`var reader: any DatabaseReader { dbWriter }`), if
    /// that is what `name` is.
    func forwardedProperty(_ name: String, of base: ExprSyntax) -> String? {
        guard let baseType = context.typer.type(of: base),
              let type = context.index.types[SourceIndex.coreTypeName(baseType)] else { return nil }
        for declaration in type.declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings where binding.pattern.trimmedDescription == name {
                    guard let accessor = binding.accessorBlock, case let .getter(statements) = accessor.accessors,
                          statements.count == 1, let expression = statements.first?.item.as(ExprSyntax.self)
                    else { return nil }
                    var text = expression.trimmedDescription
                    if text.hasPrefix("self.") { text.removeFirst("self.".count) }
                    let isProperty = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
                        && type.members.contains { member in
                            guard case .property = member.kind else { return false }
                            return member.name == text && !member.isStatic
                        }
                    return isProperty ? text : nil
                }
            }
        }
        return nil
    }

    /// Where a receiver comes from.
    func handleRoot(_ receiver: ExprSyntax, file: SourceFile) -> HandleRoot? {
        // `database.pool` of a holder that adopts its pool: the holder.
        if let member = receiver.as(MemberAccessExprSyntax.self), let base = member.base,
           let baseType = context.typer.type(of: base),
           let holder = context.index.types[SourceIndex.coreTypeName(baseType)].flatMap({ DatabaseHolder($0, context: context) }),
           holder.adoptedProperty != nil,
           let type = context.typer.type(of: receiver), GRDBVocabulary.handleTypes[SourceIndex.coreTypeName(type)] != nil {
            return handleRoot(base, file: file)
        }
        guard let type = context.typer.type(of: receiver) else { return nil }
        var expression = receiver.trimmedDescription
        if expression.hasPrefix("self.") { expression.removeFirst("self.".count) }
        if let member = receiver.as(MemberAccessExprSyntax.self), let base = member.base,
           let forwarded = forwardedProperty(member.declName.baseName.text, of: base) {
            // `appDatabase.reader` whose getter is `dbWriter`: the same database as `appDatabase.dbWriter`.
            expression = String(expression.dropLast(member.declName.baseName.text.count)) + forwarded
        }
        let first = String(expression.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        let rest = String(expression.dropFirst(first.count))
        if let computed = computedHandle(first) {
            var expanded = computed.trimmedDescription
            if expanded.hasPrefix("self.") { expanded.removeFirst("self.".count) }
            let root = String(expanded.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            let isStored = storedProperties().contains { $0.0 == root }
            return HandleRoot(property: isStored ? root : nil, expression: expanded + rest, type: type)
        }
        if let reference = receiver.descendants(DeclReferenceExprSyntax.self).first,
           let local = LocalScope.declarations(visibleAt: reference)[first] {
            // A local bound from the database (`guard let database = Env.current.database`).
            let value: ExprSyntax?
            switch local.origin {
            case let .optionalBinding(bound): value = bound
            case .local: value = local.initializer
            default: value = nil
            }
            guard let value, let statement = local.node.ancestor(CodeBlockItemSyntax.self, below: Syntax(local.node.root)),
                  !(statement.item.is(ExpressionStmtSyntax.self)), var root = handleRoot(value, file: file), root.binding == nil
            else {
                return HandleRoot(property: nil, expression: "local " + expression, type: type)
            }
            root.binding = statement
            root.bindingName = first
            root.expression += rest
            // `database.dbWriter` of a global holder: the handle it reads.
            if !rest.isEmpty {
                root.bindingType = root.type
                root.type = type
            }
            return root
        }
        let isStored = storedProperties().contains { $0.0 == first }
        let isGlobal = !isStored && first.first?.isUppercase == true
        return HandleRoot(property: isStored ? first : nil, expression: expression, type: type, isGlobal: isGlobal)
    }
}
#endif
