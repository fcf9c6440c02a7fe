#if Txkit
import SwiftSyntax

/// Finds every use a consumer type makes of legacy types' members, in the
/// consumer's declaration and all its extensions.
///
/// It types the base of every member access with ``ExpressionTyper``: the
/// legacy type's name (a static member), a property, parameter or local
/// declared with it or initialized from it (`Legacy(…)`, `Legacy.shared`,
/// `Legacy.make(…)`, a member of another type declared with it), `if let`
/// and `guard let` bindings, closure parameters with written types,
/// temporaries (`Legacy().find(…)`) and chains
/// (`thread.associatedData.find(…)`). A variable typed with the shim a
/// previous run generated (`Shims.Legacy`, `C.Shims.Legacy`,
/// `C_LegacyShim`, optionally `any`) gives shim uses.
///
/// A static member whose type is the legacy type itself and that takes no
/// legacy transaction (`Legacy.shared`, `Legacy.shared()`) is an accessor,
/// not a use: the members reached through it are.
///
/// Each reference to a legacy type's name it does not account for (a
/// generic argument, a collection, a cast) is kept in ``unresolved``.
final class ConsumerScanner: SyntaxVisitor {
    let consumer: String
    let legacyTypes: Set<String>
    /// The lengths of their names in UTF-8: a token of another length
    /// (read without making its text) names none of them.
    let legacyNameLengths: Set<Int>
    let file: SourceFile
    let typer: ExpressionTyper
    let isLegacyTransaction: (String) -> Bool
    /// Written types of the names in scope: the consumer's stored
    /// properties at the bottom, one frame per function, initializer,
    /// accessor or closure above.
    var scopes: [[String: String]]
    /// The consumer's stored properties `--apply` can retype (declared
    /// with the legacy type or `Legacy(…)`, see ``storedProperties(of:consumer:legacy:)``).
    let rewritableProperties: Set<String>
    private(set) var uses: [ConsumerUse] = []
    /// Offsets of the legacy-type names the scan followed.
    private(set) var accounted: Set<Int> = []

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

    /// ``storedProperties(of:consumer:legacy:)`` for several legacy types
    /// at once, names only: one pass, whatever the number of types.
    static func storedPropertyNames(
        of declarations: [TypeDeclaration], consumer: String, legacyTypes: Set<String>
    ) -> Set<String> {
        var found: Set<String> = []
        for declaration in declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                    if let type = binding.typeAnnotation?.type.trimmedText {
                        let core = SourceIndex.coreTypeName(type)
                        if legacyTypes.contains(core)
                            || GeneratedLayout.shimmedLegacy(type, consumer: consumer).map(legacyTypes.contains) == true {
                            found.insert(name)
                        }
                    } else if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
                              let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
                              legacyTypes.contains(callee.baseName.text) {
                        found.insert(name)
                    }
                }
            }
        }
        return found
    }

    /// The written (or initializer-inferred) types of a consumer's stored
    /// properties, over all its declarations.
    static func storedPropertyTypes(of declarations: [TypeDeclaration], typer: ExpressionTyper) -> [String: String] {
        var found: [String: String] = [:]
        for declaration in declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                    if let type = binding.typeAnnotation?.type.trimmedText {
                        found[name] = type
                    } else if let value = binding.initializer?.value,
                              let type = typer.type(of: value, in: [found])?.instanceType {
                        found[name] = type
                    }
                }
            }
        }
        return found
    }

    init(
        consumer: String, legacyTypes: Set<String>, legacyNameLengths: Set<Int>, file: SourceFile, index: SourceIndex,
        storedProperties: [String: String], rewritableProperties: Set<String>,
        isLegacyTransaction: @escaping (String) -> Bool
    ) {
        self.consumer = consumer
        self.legacyTypes = legacyTypes
        self.legacyNameLengths = legacyNameLengths
        self.file = file
        typer = ExpressionTyper(index: index, consumer: consumer)
        self.isLegacyTransaction = isLegacyTransaction
        self.rewritableProperties = rewritableProperties
        scopes = [storedProperties]
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: Scopes

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        push(parameters(node.signature.parameterClause.parameters))
        if let result = node.signature.returnClause?.type { account(result) }
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) { pop() }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        push(parameters(node.signature.parameterClause.parameters))
        return .visitChildren
    }
    override func visitPost(_ node: InitializerDeclSyntax) { pop() }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        var frame: [String: String] = [:]
        if case let .parameterClause(clause)? = node.signature?.parameterClause {
            for parameter in clause.parameters {
                if let type = parameter.type {
                    frame[(parameter.secondName ?? parameter.firstName).text] = type.trimmedText
                    account(type)
                }
            }
        }
        push(frame)
        return .visitChildren
    }
    override func visitPost(_ node: ClosureExprSyntax) { pop() }

    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        // A local `let finder = Legacy()`, `var finder: Legacy`, `let data = Legacy.fetch(…)`.
        if let variable = node.item.as(VariableDeclSyntax.self), scopes.count > 1 {
            bind(variable)
        }
        return .visitChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        // Stored properties were typed up front; account for their annotations.
        for binding in node.bindings {
            if let type = binding.typeAnnotation?.type { account(type) }
        }
        return .visitChildren
    }

    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        // `if let x = expr`, `guard let x = expr`, `if let x`: bound in the
        // enclosing frame (a `guard` binding outlives its statement).
        guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return .visitChildren }
        if let type = node.typeAnnotation?.type {
            scopes[scopes.count - 1][name] = type.trimmedText
            account(type)
        } else {
            let value = node.initializer?.value ?? ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(name)))
            if let type = typer.type(of: value, in: scopes)?.instanceType {
                scopes[scopes.count - 1][name] = type
            }
        }
        return .visitChildren
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        // The typer follows type aliases.
        account(node.initializer.value)
        return .skipChildren
    }

    // Nested types are other consumers.
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    func push(_ frame: [String: String]) {
        scopes.append(frame)
    }

    func pop() {
        scopes.removeLast()
    }

    func bind(_ variable: VariableDeclSyntax) {
        for binding in variable.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            if let type = binding.typeAnnotation?.type {
                scopes[scopes.count - 1][name] = type.trimmedText
            } else if let value = binding.initializer?.value, let type = typer.type(of: value, in: scopes)?.instanceType {
                scopes[scopes.count - 1][name] = type
            }
        }
    }

    func parameters(_ list: FunctionParameterListSyntax) -> [String: String] {
        var frame: [String: String] = [:]
        for parameter in list {
            frame[(parameter.secondName ?? parameter.firstName).text] = parameter.type.trimmedText
            account(parameter.type)
        }
        return frame
    }

    /// Marks the legacy names in a written type as followed, when the
    /// type is a legacy type (or its shim) up to optionality and `any`.
    /// Only that type's own names are marked, so what the scan follows of
    /// one legacy type does not depend on the others it looks for.
    func account(_ type: some SyntaxProtocol) {
        // Only tokens spelled like a legacy type are marked: a type with
        // none (most of them) needs no typing.
        guard type.tokens(viewMode: .sourceAccurate).contains(where: {
            legacyNameLengths.contains($0.trimmedLength.utf8Length) && legacyTypes.contains($0.text)
        }) else { return }
        let written = type.trimmedText
        let legacy: String
        if let instance = typer.instance(ofWritten: written).instanceType, legacyTypes.contains(instance) {
            legacy = instance
        } else if let shimmed = GeneratedLayout.shimmedLegacy(written, consumer: consumer), legacyTypes.contains(shimmed) {
            legacy = shimmed
        } else {
            return
        }
        for token in type.tokens(viewMode: .sourceAccurate) where token.text == legacy {
            accounted.insert(token.positionAfterSkippingLeadingTrivia.utf8Offset)
        }
    }

    // MARK: Uses

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        guard let baseExpression = node.base else { return .visitChildren }
        let name = node.declName.baseName.text
        if name == "init" || name == "self" { return .visitChildren }
        guard let (legacy, isThroughLegacyType, isStatic) = legacyBase(baseExpression) else { return .visitChildren }
        if let reference = baseExpression.as(DeclReferenceExprSyntax.self) {
            accounted.insert(reference.positionAfterSkippingLeadingTrivia.utf8Offset)
        }
        let call = node.parent?.as(FunctionCallExprSyntax.self).flatMap { $0.calledExpression.id == node.id ? $0 : nil }
        if isThroughLegacyType, isStatic, isAccessor(name, of: legacy, isCall: call != nil)
            || typer.index.types["\(legacy).\(name)"] != nil || typer.index.types[legacy]?.enumCases.contains(name) == true {
            // An accessor, a nested type or an enum case: not a member to shim.
            return .visitChildren
        }
        let form: ConsumerUse.Form
        var argumentTypes: [ExpressionType?] = []
        if let call {
            var labels: [String?] = call.arguments.map { $0.label?.text }
            argumentTypes = call.arguments.map { typer.type(of: $0.expression, in: scopes) }
            if call.trailingClosure != nil {
                labels.append(nil)
                argumentTypes.append(nil)
            }
            labels += call.additionalTrailingClosures.map { $0.label.text }
            argumentTypes += call.additionalTrailingClosures.map { _ in nil }
            form = .call(labels: labels)
        } else {
            form = propertyAccess(node)
        }
        let statement = call.map { Syntax($0) } ?? Syntax(node)
        uses.append(ConsumerUse(
            memberName: name,
            form: form,
            isThroughLegacyType: isThroughLegacyType,
            context: context(of: Syntax(node)),
            base: base(of: baseExpression),
            node: node,
            file: file,
            location: file.sourceLocation(of: node),
            text: statement.trimmedText,
            legacyType: legacy,
            argumentTypes: argumentTypes))
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        // `Legacy(…)`: a temporary or an initial value the typer follows.
        if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self),
           legacyTypes.contains(reference.baseName.text) {
            accounted.insert(reference.positionAfterSkippingLeadingTrivia.utf8Offset)
        }
        return .visitChildren
    }
}
#endif
