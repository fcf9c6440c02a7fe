#if Txkit
import SwiftSyntax

/// A name a function's code declares: a parameter, a local, a closure
/// parameter, a loop variable, an `if let` / `guard let` / `catch` binding.
struct LocalDeclaration {
    enum Origin {
        case parameter
        case local
        case closureParameter
        /// `for x in sequence`: an element of the sequence.
        case loopVariable(sequence: ExprSyntax)
        /// `if let x = value` (`value` nil for `if let x`): the unwrapped value.
        case optionalBinding(value: ExprSyntax?)
        /// `catch let error as T`, or the implicit `error`.
        case caughtError
    }

    var name: String
    /// The type as written (`: T`), if it is.
    var writtenType: String?
    /// A local's initial value, to infer its type from.
    var initializer: ExprSyntax?
    /// `var`, or an `inout` parameter: code may write it.
    var isVariable: Bool
    /// For a name of a tuple pattern (`for (offset, id) in …`), its position.
    var tupleIndex: Int? = nil
    var origin: Origin
    /// The declaring node (the pattern, the parameter).
    var node: Syntax
    /// Whether `node` lies inside `container`.
    static func isInside(_ node: some SyntaxProtocol, _ container: some SyntaxProtocol) -> Bool {
        node.position >= container.position && node.endPosition <= container.endPosition
    }
}

/// The names declared where a node is, as Swift's scopes see them: the
/// enclosing function's parameters, closures' parameters, loop variables,
/// bindings of enclosing conditions, and the statements before it in each
/// enclosing block. Inner declarations shadow outer ones.
enum LocalScope {
    /// What is visible at `node`, up to (and including) the parameters of
    /// the enclosing member declaration.
    static func declarations(visibleAt node: some SyntaxProtocol) -> [String: LocalDeclaration] {
        var frames: [[LocalDeclaration]] = []
        var child = Syntax(node)
        while let parent = child.parent {
            frames.append(declarations(in: parent, before: child))
            if parent.is(FunctionDeclSyntax.self) || parent.is(InitializerDeclSyntax.self)
                || parent.is(AccessorDeclSyntax.self) || parent.is(MemberBlockItemSyntax.self) {
                break
            }
            child = parent
        }
        var visible: [String: LocalDeclaration] = [:]
        for frame in frames.reversed() {
            for declaration in frame { visible[declaration.name] = declaration }
        }
        return visible
    }

    /// The declarations `parent` makes visible to its child `child`.
    private static func declarations(in parent: Syntax, before child: Syntax) -> [LocalDeclaration] {
        if let list = parent.as(CodeBlockItemListSyntax.self) {
            var found: [LocalDeclaration] = []
            for item in list {
                if item.id == child.id { break }
                found += statementDeclarations(item.item)
            }
            return found
        }
        if let closure = parent.as(ClosureExprSyntax.self), child.id == closure.statements.id {
            return closureParameters(closure)
        }
        if let function = parent.as(FunctionDeclSyntax.self) {
            return parameters(function.signature.parameterClause.parameters)
        }
        if let initializer = parent.as(InitializerDeclSyntax.self) {
            return parameters(initializer.signature.parameterClause.parameters)
        }
        if let accessor = parent.as(AccessorDeclSyntax.self), accessor.accessorSpecifier.text == "set" {
            let name = accessor.parameters?.name.text ?? "newValue"
            return [LocalDeclaration(name: name, writtenType: nil, isVariable: false, origin: .parameter, node: Syntax(accessor))]
        }
        if let loop = parent.as(ForStmtSyntax.self), child.id == loop.body.id {
            let pattern = loop.pattern.as(ValueBindingPatternSyntax.self)?.pattern ?? loop.pattern
            if let tuple = pattern.as(TuplePatternSyntax.self) {
                return tuple.elements.enumerated().flatMap { position, element in
                    patternNames(element.pattern).map { name, node in
                        LocalDeclaration(
                            name: name, writtenType: nil, isVariable: loop.pattern.trimmedDescription.hasPrefix("var "),
                            tupleIndex: position, origin: .loopVariable(sequence: loop.sequence), node: node)
                    }
                }
            }
            return patternNames(loop.pattern).map { name, node in
                LocalDeclaration(
                    name: name, writtenType: loop.typeAnnotation?.type.trimmedDescription,
                    isVariable: loop.pattern.trimmedDescription.hasPrefix("var "), origin: .loopVariable(sequence: loop.sequence),
                    node: node)
            }
        }
        if let conditions = parent.as(ConditionElementListSyntax.self) {
            var found: [LocalDeclaration] = []
            for condition in conditions {
                if condition.id == child.id { break }
                found += conditionDeclarations(condition)
            }
            return found
        }
        if let ifExpression = parent.as(IfExprSyntax.self), child.id == ifExpression.body.id {
            return ifExpression.conditions.flatMap(conditionDeclarations)
        }
        if let whileStatement = parent.as(WhileStmtSyntax.self), child.id == whileStatement.body.id {
            return whileStatement.conditions.flatMap(conditionDeclarations)
        }
        if let catchClause = parent.as(CatchClauseSyntax.self), child.id == catchClause.body.id {
            var found: [LocalDeclaration] = []
            for item in catchClause.catchItems {
                guard let pattern = item.pattern else { continue }
                let written = pattern.as(ValueBindingPatternSyntax.self)?.pattern ?? pattern
                for (name, node) in patternNames(written) {
                    found.append(LocalDeclaration(
                        name: name, writtenType: castType(in: pattern), isVariable: false, origin: .caughtError, node: node))
                }
            }
            if catchClause.catchItems.isEmpty {
                found.append(LocalDeclaration(
                    name: "error", writtenType: "any Error", isVariable: false, origin: .caughtError, node: Syntax(catchClause)))
            }
            return found
        }
        return []
    }

    /// `let error as DatabaseError`: the type after `as`.
    private static func castType(in pattern: PatternSyntax) -> String? {
        let text = pattern.trimmedDescription
        guard let range = text.range(of: " as ") else { return nil }
        return String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces)
    }

    /// The names a statement declares for the statements after it.
    static func statementDeclarations(_ item: CodeBlockItemSyntax.Item) -> [LocalDeclaration] {
        if let variable = item.as(VariableDeclSyntax.self) {
            let isVariable = variable.bindingSpecifier.text == "var"
            var found: [LocalDeclaration] = []
            for binding in variable.bindings {
                for (name, node) in patternNames(binding.pattern) {
                    let isSimple = binding.pattern.is(IdentifierPatternSyntax.self)
                    found.append(LocalDeclaration(
                        name: name, writtenType: isSimple ? binding.typeAnnotation?.type.trimmedDescription : nil,
                        initializer: isSimple ? binding.initializer?.value : nil,
                        isVariable: isVariable, origin: .local, node: node))
                }
            }
            return found
        }
        if let guardStatement = item.as(GuardStmtSyntax.self) {
            return guardStatement.conditions.flatMap(conditionDeclarations)
        }
        return []
    }

    private static func conditionDeclarations(_ condition: ConditionElementSyntax) -> [LocalDeclaration] {
        guard case let .optionalBinding(binding) = condition.condition else { return [] }
        return patternNames(binding.pattern).map { name, node in
            LocalDeclaration(
                name: name, writtenType: binding.typeAnnotation?.type.trimmedDescription,
                isVariable: binding.bindingSpecifier.text == "var",
                origin: .optionalBinding(value: binding.initializer?.value), node: node)
        }
    }

    static func parameters(_ list: FunctionParameterListSyntax) -> [LocalDeclaration] {
        list.map { parameter in
            let type = parameter.type.trimmedDescription
            let isInout = type.hasPrefix("inout ")
            return LocalDeclaration(
                name: (parameter.secondName ?? parameter.firstName).text,
                writtenType: isInout ? String(type.dropFirst("inout ".count)) : type,
                isVariable: isInout, origin: .parameter, node: Syntax(parameter))
        }
    }

    static func closureParameters(_ closure: ClosureExprSyntax) -> [LocalDeclaration] {
        guard let signature = closure.signature?.parameterClause else { return [] }
        switch signature {
        case let .simpleInput(names):
            return names.map { name in
                LocalDeclaration(name: name.name.text, writtenType: nil, isVariable: false, origin: .closureParameter, node: Syntax(name))
            }
        case let .parameterClause(clause):
            return clause.parameters.map { parameter in
                LocalDeclaration(
                    name: (parameter.secondName ?? parameter.firstName).text,
                    writtenType: parameter.type?.trimmedDescription, isVariable: false, origin: .closureParameter,
                    node: Syntax(parameter))
            }
        }
    }

    /// The names a pattern binds: `x`, `(a, b)`, `let x`, `var x`.
    static func patternNames(_ pattern: PatternSyntax) -> [(String, Syntax)] {
        if let identifier = pattern.as(IdentifierPatternSyntax.self) {
            return identifier.identifier.text == "_" ? [] : [(identifier.identifier.text, Syntax(identifier))]
        }
        if let binding = pattern.as(ValueBindingPatternSyntax.self) {
            return patternNames(binding.pattern)
        }
        if let tuple = pattern.as(TuplePatternSyntax.self) {
            return tuple.elements.flatMap { patternNames($0.pattern) }
        }
        if let expression = pattern.as(ExpressionPatternSyntax.self) {
            return expression.expression.tokens(viewMode: .sourceAccurate).compactMap { token in
                guard case .identifier = token.tokenKind,
                      let parent = token.parent?.as(PatternExprSyntax.self) ?? token.parent?.parent?.as(PatternExprSyntax.self)
                else { return nil }
                return (token.text, Syntax(parent))
            }
        }
        return []
    }
}
#endif
