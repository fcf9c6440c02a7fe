import SwiftSyntax

/// Finds every use a consumer type makes of one legacy type's members, in
/// the consumer's declaration and all its extensions.
///
/// It follows names, not types (the generator has no type checker): a use
/// is a member access whose base is the legacy type's name (a static
/// member), or a stored property, parameter or local variable declared with
/// the legacy type, or with the shim type a previous run generated
/// (`Shims.Legacy`, `C.Shims.Legacy`, `C_LegacyShim`, optionally `any`),
/// or initialized with `Legacy(…)`, reached directly or through `self.`.
final class ConsumerScanner: SyntaxVisitor {
    private let consumer: String
    private let legacy: String
    private let file: SourceFile
    /// The variables in scope that hold the legacy type (`true`) or its
    /// shim (`false`): the consumer's stored properties at the bottom, one
    /// frame per function, initializer, accessor or closure above.
    private var scopes: [[String: Bool]]
    private(set) var uses: [ConsumerUse] = []

    /// The consumer's stored properties of the legacy or shim type, over
    /// all its declarations (a property declared in one extension of the
    /// type is used in another).
    static func storedProperties(
        of declarations: [TypeDeclaration], consumer: String, legacy: String
    ) -> [String: Bool] {
        var found: [String: Bool] = [:]
        for declaration in declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for (name, isLegacy) in legacyBindings(variable, consumer: consumer, legacy: legacy) {
                    found[name] = isLegacy
                }
            }
        }
        return found
    }

    init(consumer: String, legacy: String, file: SourceFile, storedProperties: [String: Bool]) {
        self.consumer = consumer
        self.legacy = legacy
        self.file = file
        scopes = [storedProperties]
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: Scopes

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(parameters(node.signature.parameterClause.parameters))
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(parameters(node.signature.parameterClause.parameters))
        return .visitChildren
    }
    override func visitPost(_ node: InitializerDeclSyntax) { scopes.removeLast() }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        var frame: [String: Bool] = [:]
        if case let .parameterClause(clause)? = node.signature?.parameterClause {
            for parameter in clause.parameters {
                if let type = parameter.type, let isLegacy = classify(type.trimmedDescription) {
                    frame[(parameter.secondName ?? parameter.firstName).text] = isLegacy
                }
            }
        }
        scopes.append(frame)
        return .visitChildren
    }
    override func visitPost(_ node: ClosureExprSyntax) { scopes.removeLast() }

    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        // A local `let finder = Legacy()` or `var finder: Legacy`.
        if let variable = node.item.as(VariableDeclSyntax.self), scopes.count > 1 {
            for (name, isLegacy) in Self.legacyBindings(variable, consumer: consumer, legacy: legacy) {
                scopes[scopes.count - 1][name] = isLegacy
            }
        }
        return .visitChildren
    }

    // Nested types are other consumers.
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    // MARK: Uses

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        guard let baseExpression = node.base, let kind = baseKind(baseExpression) else { return .visitChildren }
        let (isThroughLegacyType, base) = kind
        let name = node.declName.baseName.text
        if name == "init" || name == "self" { return .visitChildren }
        let access: ConsumerUse.Access
        if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id {
            var labels: [String?] = call.arguments.map { $0.label?.text }
            if call.trailingClosure != nil { labels.append(nil) }
            labels += call.additionalTrailingClosures.map { $0.label.text }
            access = .call(labels: labels)
        } else {
            access = propertyAccess(node)
        }
        let statement = node.parent?.as(FunctionCallExprSyntax.self).map { Syntax($0) } ?? Syntax(node)
        uses.append(ConsumerUse(
            memberName: name,
            access: access,
            isThroughLegacyType: isThroughLegacyType,
            context: context(of: Syntax(node)),
            base: base,
            node: node,
            file: file,
            location: file.location(of: node),
            text: statement.trimmedDescription))
        return .visitChildren
    }

    /// Whether `base` names the legacy type or a variable of it (`true`),
    /// a variable of its shim (`false`), or something else (`nil`), and
    /// what kind of name it is.
    private func baseKind(_ base: ExprSyntax) -> (Bool, ConsumerUse.Base)? {
        if let reference = base.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if name == legacy { return (true, .type) }
            for (depth, frame) in scopes.enumerated().reversed() {
                if let isLegacy = frame[name] {
                    return (isLegacy, depth == 0 ? .storedProperty(name) : .variable(name))
                }
            }
            return nil
        }
        if let member = base.as(MemberAccessExprSyntax.self),
           member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
            let name = member.declName.baseName.text
            return scopes[0][name].map { ($0, .storedProperty(name)) }
        }
        if let forced = base.as(ForceUnwrapExprSyntax.self) {
            return baseKind(forced.expression)
        }
        if let optional = base.as(OptionalChainingExprSyntax.self) {
            return baseKind(optional.expression)
        }
        return nil
    }

    /// A property use: written when it is the left side of `=` or of a
    /// compound assignment, read otherwise (or also).
    private func propertyAccess(_ node: MemberAccessExprSyntax) -> ConsumerUse.Access {
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
    private func context(of node: Syntax) -> ConsumerUse.Context {
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
                let types = parameters.map { $0.type.trimmedDescription }
                if types.contains("DBWriteTransaction") { return .write }
                if types.contains("DBReadTransaction") { return .read }
                return .unknown
            }
            current = node.parent
        }
        return .unknown
    }

    // MARK: Declarations of the legacy type

    private func parameters(_ list: FunctionParameterListSyntax) -> [String: Bool] {
        var frame: [String: Bool] = [:]
        for parameter in list {
            if let isLegacy = classify(parameter.type.trimmedDescription) {
                frame[(parameter.secondName ?? parameter.firstName).text] = isLegacy
            }
        }
        return frame
    }

    private func classify(_ type: String) -> Bool? {
        Self.classify(type, consumer: consumer, legacy: legacy)
    }

    /// `true` for the legacy type, `false` for its shim, `nil` otherwise.
    static func classify(_ type: String, consumer: String, legacy: String) -> Bool? {
        var type = type
        for prefix in ["any ", "some "] where type.hasPrefix(prefix) {
            type = String(type.dropFirst(prefix.count))
        }
        while type.hasSuffix("?") || type.hasSuffix("!") {
            type = String(type.dropLast())
        }
        if type.hasPrefix("(") && type.hasSuffix(")") {
            return classify(String(type.dropFirst().dropLast()), consumer: consumer, legacy: legacy)
        }
        if type == legacy { return true }
        if type == "Shims.\(legacy)" || type == "\(consumer).Shims.\(legacy)" || type == "\(consumer)_\(legacy)Shim" {
            return false
        }
        return nil
    }

    /// The names a variable declaration binds to the legacy type or its
    /// shim, by annotation or by a `Legacy(…)` initial value.
    static func legacyBindings(
        _ variable: VariableDeclSyntax, consumer: String, legacy: String
    ) -> [(String, Bool)] {
        variable.bindings.compactMap { binding in
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
            if let type = binding.typeAnnotation?.type.trimmedDescription {
                return classify(type, consumer: consumer, legacy: legacy).map { (name, $0) }
            }
            if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
               call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == legacy {
                return (name, true)
            }
            return nil
        }
    }
}

