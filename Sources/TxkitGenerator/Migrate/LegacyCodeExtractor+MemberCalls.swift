#if Txkit
import SwiftSyntax

/// A call of a member the sources declare that takes the legacy
/// transaction (`AccountQueries.requireAccount(id, in: db)`,
/// `thread.anyUpdate(transaction: transaction) { … }`): its requirement
/// takes the member's own parameters (and the value it is called on), so
/// every call of that member shares one requirement, named as the member,
/// whatever variables the calls pass.
extension LegacyCodeExtractor {
    /// The requirement and the consumer's new text for such a call, or nil
    /// (then the call moves as an expression, its variables as parameters).
    /// The member of a type the sources declare that `call` calls, with
    /// the parameter each argument fills (trailing closure last), or nil.
    func resolvedMember(of call: FunctionCallExprSyntax, throughOptionalChain: Bool = false) -> ResolvedMemberCall? {
        guard let callee = call.calledExpression.as(MemberAccessExprSyntax.self), var base = callee.base,
              call.additionalTrailingClosures.isEmpty
        else { return nil }
        if let chained = base.as(OptionalChainingExprSyntax.self) {
            guard throughOptionalChain else { return nil }
            base = chained.expression
        }
        guard let baseType = context.typer.type(of: base) else { return nil }
        let metatype = TypeText.metatypeInstance(baseType)
        let receiverType = metatype ?? TypeText.unwrapped(baseType)
        guard let indexed = context.index.types[SourceIndex.coreTypeName(receiverType)], indexed.kind != .protocol else { return nil }
        var labels: [String?] = call.arguments.map { $0.label?.text }
        if call.trailingClosure != nil { labels.append(nil) }
        let candidates = context.index.members(named: callee.declName.baseName.text, of: receiverType, isStatic: metatype != nil)
            .filter { $0.kind == .function && $0.genericParameters.isEmpty && !$0.isAsync }
        for member in candidates {
            let matcher = CallMatcher(member: member, shimForm: false, isLegacyTransaction: { _ in false })
            if let filled = matcher.argumentParameters(labels), filled.count == labels.count {
                return ResolvedMemberCall(
                    member: member, type: indexed, base: base, baseType: baseType, metatype: metatype,
                    receiverType: receiverType, filled: filled)
            }
        }
        return nil
    }

    /// A call ``resolvedMember(of:)`` resolved.
    struct ResolvedMemberCall {
        var member: IndexedMember
        var type: IndexedType
        var base: ExprSyntax
        var baseType: String
        /// The type, when the call is on the type itself (`Note.count(db)`).
        var metatype: String?
        var receiverType: String
        /// The parameter each argument fills, in order.
        var filled: [Int]
    }

    /// Read or write, when `call` passes the scope's legacy transaction to a
    /// member the sources declare and that member says which (as a shim
    /// member's ``TransactionDecision``: its transaction's type, then its
    /// body); nil when it does not.
    func calleeKind(_ call: FunctionCallExprSyntax) -> TransactionKind? {
        guard let resolved = resolvedMember(of: call, throughOptionalChain: true) else { return nil }
        var expressions = call.arguments.map { ExprSyntax($0.expression) }
        if let trailing = call.trailingClosure { expressions.append(ExprSyntax(trailing)) }
        guard let position = expressions.firstIndex(where: isLegacyTransactionExpression) else { return nil }
        let parameter = resolved.member.parameters[resolved.filled[position]]
        if let decision = ShimPlan.accessFromTransactionType(parameter.type, configuration: context.configuration) {
            return decision.kind
        }
        let configuration = context.configuration
        let bodies = LegacyBodies(legacy: resolved.type, isLegacyTransaction: configuration.isLegacyTransaction)
        switch bodies.effect(of: resolved.member) {
        case .writes: return .write
        case .reads: return .read
        case .unknown: return nil
        }
    }

    func memberCall(_ call: FunctionCallExprSyntax) -> (InlineRequirement, replacement: String, assignsBack: String?)? {
        guard let resolved = resolvedMember(of: call),
              let callee = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return nil }
        let (member, indexed, base, baseType) = (resolved.member, resolved.type, resolved.base, resolved.baseType)
        let (metatype, receiverType, filled) = (resolved.metatype, resolved.receiverType, resolved.filled)
        // The arguments, each with its parameter; exactly one is the legacy transaction.
        var arguments: [(parameter: IndexedParameter, text: String, isTransaction: Bool)] = []
        var expressions = call.arguments.map { ExprSyntax($0.expression) }
        if let trailing = call.trailingClosure { expressions.append(ExprSyntax(trailing)) }
        for (position, expression) in expressions.enumerated() {
            let parameter = member.parameters[filled[position]]
            guard !parameter.isVariadic else { return nil }
            let isTransaction = mentionsLegacyTransaction(expression)
            if isTransaction, !isLegacyTransactionExpression(expression) { return nil }
            arguments.append((parameter, expression.trimmedDescription, isTransaction))
        }
        guard arguments.filter(\.isTransaction).count == 1 else { return nil }
        // A closure argument that uses the transaction stays in the consumer: not this way.
        if arguments.contains(where: { !$0.isTransaction && $0.parameter.isClosure && $0.text.contains(scope.legacyName) }) {
            return nil
        }
        // The value it is called on, when it is not a type.
        var parameters: [InlineRequirement.Parameter] = []
        var callArguments: [String] = []
        var receiver = metatype ?? ""
        var assignsBack: String?
        var body: [String] = []
        if metatype == nil {
            let name = SwiftText.lowercasedFirst(SwiftText.identifier(from: receiverType))
            parameters.append(InlineRequirement.Parameter(name: name, type: TypeText.unwrapped(baseType)))
            callArguments.append("\(name): \(base.trimmedDescription)")
            receiver = name
            let isMutating = FreeVariables.write(of: Syntax(base)) != nil
                && base.is(DeclReferenceExprSyntax.self)
                && isMutatingMember(callee.declName.baseName.text, of: indexed)
            if isMutating {
                guard statementExpression(of: ExprSyntax(call)) != nil, member.resultType == nil else { return nil }
                assignsBack = base.trimmedDescription
                body.append("var \(name) = \(name)")
            }
        }
        var forwarded: [String] = []
        for argument in arguments {
            let label = argument.parameter.label.map { $0 + ": " } ?? ""
            if argument.isTransaction {
                forwarded.append(label + argument.text)
                continue
            }
            var name = argument.parameter.name
            while parameters.contains(where: { $0.name == name }) { name += "Value" }
            parameters.append(InlineRequirement.Parameter(
                name: name, type: argument.parameter.type,
                label: argument.parameter.label == name ? nil : (argument.parameter.label ?? "_")))
            callArguments.append((argument.parameter.label == nil ? "" : "\(argument.parameter.label == name ? name : argument.parameter.label!): ") + argument.text)
            forwarded.append(label + (argument.parameter.isInout ? "&" : "") + name)
        }
        let result = member.resultType.map { TypeText.replacingSelf($0, with: receiverType) }
        let invocation = SwiftText.callPrefix(isAsync: false, throwing: member.throwsClause != nil)
            + "\(receiver).\(member.name)(\(forwarded.joined(separator: ", ")))"
        if assignsBack != nil {
            body += [invocation, "return \(receiver)"]
        } else {
            body.append((result == nil ? "" : "return ") + invocation)
        }
        guard !(result.map(context.isLegacyType) ?? false) else { return nil }
        let requirement = InlineRequirement(
            name: member.name, parameters: parameters,
            resultType: assignsBack != nil ? TypeText.unwrapped(baseType) : result ?? "Void",
            kind: kind(of: [Syntax(call)]), body: body, legacyName: scope.legacyName, legacyType: scope.legacyType,
            summary: "`\(indexed.name).\(member.displayName)`, as `\(context.consumer.name)` calls it")
        let added = context.add(requirement, method: scope.methodName, qualifier: indexed.name)
        let text = "\(shim).\(added.name)(\((callArguments + [scope.transactionName]).joined(separator: ", ")))"
        return (added, text, assignsBack)
    }

    /// Whether an expression uses the scope's legacy transaction.
    private func mentionsLegacyTransaction(_ expression: ExprSyntax) -> Bool {
        expression.descendants(DeclReferenceExprSyntax.self).contains { reference in
            reference.baseName.text == scope.legacyName && !FreeVariables.isMemberName(reference)
                && LocalScope.declarations(visibleAt: reference)[scope.legacyName]?.node.id == scope.legacyDeclaration?.id
        }
    }

    /// `db`, or `transaction.database`: the legacy transaction, or its connection.
    func isLegacyTransactionExpression(_ expression: ExprSyntax) -> Bool {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == scope.legacyName }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self) {
            return base.baseName.text == scope.legacyName
        }
        return false
    }

    /// Whether a member of a value type is declared `mutating`.
    private func isMutatingMember(_ name: String, of type: IndexedType) -> Bool {
        guard type.kind == .struct || type.kind == .enum else { return false }
        return type.declarations.contains { declaration in
            declaration.memberBlock.members.contains { item in
                guard let function = item.decl.as(FunctionDeclSyntax.self), function.name.text == name else { return false }
                return function.modifiers.contains { $0.name.text == "mutating" }
            }
        }
    }
}
#endif
