#if Txkit
import SwiftSyntax

/// What a use is made on and in: its base (legacy value, shim, type),
/// its form, and the transaction around it.
extension ConsumerScanner {
    /// The legacy type `base` is a value (or the type) of, whether it is
    /// the legacy type rather than its shim, and whether it is the type
    /// itself (static members).
    func legacyBase(_ base: ExprSyntax) -> (String, Bool, Bool)? {
        guard let type = typer.type(of: base, in: scopes) else {
            return shimBase(base)
        }
        switch type {
        case let .instance(name) where legacyTypes.contains(name):
            return (name, true, false)
        case let .metatype(name) where legacyTypes.contains(name):
            return (name, true, true)
        default:
            return shimBase(base)
        }
    }

    /// A variable typed with a generated shim (`Shims.Legacy`…).
    func shimBase(_ base: ExprSyntax) -> (String, Bool, Bool)? {
        var expression = base
        while true {
            if let forced = expression.as(ForceUnwrapExprSyntax.self) {
                expression = forced.expression
            } else if let optional = expression.as(OptionalChainingExprSyntax.self) {
                expression = optional.expression
            } else {
                break
            }
        }
        let name: String
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = expression.as(MemberAccessExprSyntax.self),
                  member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
            name = member.declName.baseName.text
        } else {
            return nil
        }
        let frames = expression.is(DeclReferenceExprSyntax.self) ? scopes : [scopes[0]]
        guard let written = frames.reversed().lazy.compactMap({ $0[name] }).first else { return nil }
        guard let legacy = GeneratedLayout.shimmedLegacy(written, consumer: consumer), legacyTypes.contains(legacy) else { return nil }
        return (legacy, false, false)
    }

    /// Whether a static member is a singleton or factory accessor: its type
    /// is the legacy type and it takes no legacy transaction.
    func isAccessor(_ name: String, of legacy: String, isCall: Bool) -> Bool {
        let members = typer.index.members(named: name, of: legacy, isStatic: true)
            .filter { ($0.kind == .function) == isCall }
        guard !members.isEmpty else { return false }
        return members.allSatisfy { member in
            let result = SourceIndex.coreTypeName(member.resultType ?? "Void")
            return (result == legacy || result == "Self")
                && !member.parameters.contains { isLegacyTransaction(SourceIndex.coreTypeName($0.type)) }
        }
    }

    /// What the use is reached through, as `--apply` tells them apart.
    func base(of expression: ExprSyntax) -> ConsumerUse.Base {
        var unwrapped = expression
        while true {
            if let forced = unwrapped.as(ForceUnwrapExprSyntax.self) {
                unwrapped = forced.expression
            } else if let optional = unwrapped.as(OptionalChainingExprSyntax.self) {
                unwrapped = optional.expression
            } else {
                break
            }
        }
        if let reference = unwrapped.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if legacyTypes.contains(name) { return .type }
            if let depth = scopes.indices.reversed().first(where: { scopes[$0][name] != nil }) {
                if depth > 0 { return .variable(name) }
                if rewritableProperties.contains(name) { return .storedProperty(name) }
            }
        } else if let member = unwrapped.as(MemberAccessExprSyntax.self),
                  member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self),
                  rewritableProperties.contains(member.declName.baseName.text) {
            return .storedProperty(member.declName.baseName.text)
        }
        return .expression(expression.trimmedText)
    }

    /// A property use: written when it is the left side of `=` or of a
    /// compound assignment, read otherwise (or also).
    func propertyAccess(_ node: MemberAccessExprSyntax) -> ConsumerUse.Form {
        guard let list = node.parent?.as(ExprListSyntax.self) else {
            return .property(isRead: true, isWrite: false)
        }
        let elements = Array(list)
        guard let index = elements.firstIndex(where: { $0.id == node.id }), index + 1 < elements.count else {
            return .property(isRead: true, isWrite: false)
        }
        let next = elements[index + 1]
        if next.is(AssignmentExprSyntax.self) {
            return .property(isRead: false, isWrite: true)
        }
        if let binary = next.as(BinaryOperatorExprSyntax.self), binary.operator.text.hasSuffix("="),
           !["==", "!=", "<=", ">=", "===", "!=="].contains(binary.operator.text) {
            return .property(isRead: true, isWrite: true)
        }
        return .property(isRead: true, isWrite: false)
    }

    /// The transaction around a use: the nearest enclosing closure passed
    /// to a `read` or `write` call, or the nearest enclosing function with
    /// a `DBReadTransaction` or `DBWriteTransaction` parameter.
    func context(of node: Syntax) -> ConsumerUse.Context {
        var current = node.parent
        while let node = current {
            if let closure = node.as(ClosureExprSyntax.self) {
                var call = closure.parent?.as(FunctionCallExprSyntax.self)
                if call == nil, let argument = closure.parent?.as(LabeledExprSyntax.self) {
                    call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
                }
                if let called = call?.calledExpression.as(MemberAccessExprSyntax.self) {
                    switch called.declName.baseName.text {
                    case "read": return .read
                    case "write": return .write
                    default: break
                    }
                }
            }
            var parameters: FunctionParameterListSyntax?
            if let function = node.as(FunctionDeclSyntax.self) {
                parameters = function.signature.parameterClause.parameters
            } else if let initializer = node.as(InitializerDeclSyntax.self) {
                parameters = initializer.signature.parameterClause.parameters
            }
            if let parameters {
                let types = parameters.map { $0.type.trimmedText }
                if types.contains("DBWriteTransaction") { return .write }
                if types.contains("DBReadTransaction") { return .read }
                return .unknown
            }
            current = node.parent
        }
        return .unknown
    }
}
#endif
