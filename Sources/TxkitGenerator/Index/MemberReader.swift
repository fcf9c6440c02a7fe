#if Txkit
import SwiftSyntax

/// Turns the members of a type's body into ``IndexedMember`` values. Nested
/// types are left to the type collector; initializers, subscripts and
/// private members are not shimmed.
final class MemberReader {
    let file: SourceFile
    var order: Int
    /// The access level of members declared without a modifier.
    let defaultAccess: AccessLevel
    var members: [IndexedMember] = []
    var hasArgumentlessInit = false
    /// An enum's case names.
    var enumCases: [String] = []

    /// Attributes a shim keeps on a member.
    static func keptAttributes(_ attributes: AttributeListSyntax) -> [String] {
        attributes.compactMap { element -> String? in
            guard let attribute = element.as(AttributeSyntax.self) else { return nil }
            let name = attribute.attributeName.trimmedText
            if name == "discardableResult" || name == "available" || name.hasSuffix("Actor") {
                return attribute.trimmedText
            }
            return nil
        }
    }

    /// The `///` lines of a declaration's doc comment.
    static func documentation(_ trivia: Trivia) -> [String] {
        var lines: [String] = []
        for piece in trivia {
            switch piece {
            case let .docLineComment(text):
                lines.append(text)
            case .newlines, .spaces, .tabs, .carriageReturnLineFeeds:
                continue
            default:
                lines = []
            }
        }
        return lines
    }

    /// The type of a property's initial value when the value says it
    /// alone: `Legacy()`, `Legacy.init(…)`, a literal. `nil` otherwise
    /// (the property is then not a member the generator knows).
    static func inferredType(of value: ExprSyntax) -> String? {
        if let call = value.as(FunctionCallExprSyntax.self) {
            var callee = call.calledExpression
            if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init",
               let base = member.base {
                callee = base
            }
            if let reference = callee.as(DeclReferenceExprSyntax.self),
               reference.baseName.text.first?.isUppercase == true {
                return reference.baseName.text
            }
            return nil
        }
        if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if value.is(FloatLiteralExprSyntax.self) { return "Double" }
        if value.is(StringLiteralExprSyntax.self) { return "String" }
        if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        return nil
    }

    /// - Parameter defaultAccess: The access level of members without a
    ///   modifier (an extension's, such as `public extension`).
    init(file: SourceFile, order: Int, defaultAccess: AccessLevel = .internal) {
        self.file = file
        self.order = order
        self.defaultAccess = defaultAccess
    }

    func read(_ items: MemberBlockItemListSyntax) {
        for item in items {
            read(item.decl)
        }
    }

    private func read(_ decl: DeclSyntax) {
        if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
            for clause in ifConfig.clauses {
                if case let .decls(items)? = clause.elements {
                    read(items)
                }
            }
        } else if let function = decl.as(FunctionDeclSyntax.self) {
            guard isVisible(function.modifiers) else { return }
            members.append(member(function))
        } else if let variable = decl.as(VariableDeclSyntax.self) {
            guard isVisible(variable.modifiers) else { return }
            members += properties(variable)
        } else if let cases = decl.as(EnumCaseDeclSyntax.self) {
            enumCases += cases.elements.map(\.name.text)
        } else if let initializer = decl.as(InitializerDeclSyntax.self) {
            let parameters = initializer.signature.parameterClause.parameters
            if isVisible(initializer.modifiers), initializer.optionalMark == nil,
               parameters.allSatisfy({ $0.defaultValue != nil }) {
                hasArgumentlessInit = true
            }
        }
    }

    private func isVisible(_ modifiers: DeclModifierListSyntax) -> Bool {
        !modifiers.contains { modifier in
            (modifier.name.tokenKind == .keyword(.private) || modifier.name.tokenKind == .keyword(.fileprivate))
                && modifier.detail == nil
        }
    }

    private func isNonisolated(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) }
    }

    private func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    private func nextOrder() -> Int {
        order += 1
        return order
    }

    private func member(_ function: FunctionDeclSyntax) -> IndexedMember {
        let signature = function.signature
        let parameters = signature.parameterClause.parameters.map { parameter -> IndexedParameter in
            var type = parameter.type.trimmedText
            var isInout = false
            if type.hasPrefix("inout ") {
                isInout = true
                type = String(type.dropFirst("inout ".count))
            }
            let first = parameter.firstName.text
            return IndexedParameter(
                label: first == "_" ? nil : first,
                name: parameter.secondName?.text ?? first,
                type: type,
                isInout: isInout,
                isVariadic: parameter.ellipsis != nil,
                defaultValue: parameter.defaultValue?.value.trimmedText,
                shape: TypeShape(parameter.type))
        }
        return IndexedMember(
            kind: .function,
            name: function.name.text,
            isStatic: isStatic(function.modifiers),
            genericParameters: function.genericParameterClause?.trimmedText ?? "",
            genericParameterNames: function.genericParameterClause?.parameters.map(\.name.text) ?? [],
            whereClause: function.genericWhereClause?.trimmedText ?? "",
            parameters: parameters,
            isAsync: signature.effectSpecifiers?.asyncSpecifier != nil,
            throwsClause: signature.effectSpecifiers?.throwsClause?.trimmedText,
            resultType: signature.returnClause.map { $0.type.trimmedText }.flatMap { $0 == "Void" || $0 == "()" ? nil : $0 },
            resultShape: signature.returnClause.map { TypeShape($0.type) },
            attributes: Self.keptAttributes(function.attributes),
            documentation: Self.documentation(function.leadingTrivia),
            declaration: file.sourceLocation(of: function.name),
            accessLevel: TypeCollector.explicitAccessLevel(function.modifiers) ?? defaultAccess,
            order: nextOrder(),
            isExemptFromActorIsolation: isNonisolated(function.modifiers))
    }

    private func properties(_ variable: VariableDeclSyntax) -> [IndexedMember] {
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        return variable.bindings.compactMap { binding -> IndexedMember? in
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let type = binding.typeAnnotation?.type.trimmedText
                    ?? binding.initializer.flatMap({ Self.inferredType(of: $0.value) })
            else { return nil }
            let isSettable: Bool
            switch binding.accessorBlock?.accessors {
            case nil:
                isSettable = !isLet
            case .getter?:
                isSettable = false
            case let .accessors(accessors)?:
                // A setter, or observers on a stored property.
                let settingKinds: [TokenKind] = [.keyword(.set), .keyword(.didSet), .keyword(.willSet)]
                isSettable = accessors.contains { settingKinds.contains($0.accessorSpecifier.tokenKind) }
            }
            let setter = variable.modifiers.contains { modifier in
                modifier.detail?.detail.text == "set"
                    && (modifier.name.tokenKind == .keyword(.private) || modifier.name.tokenKind == .keyword(.fileprivate))
            }
            return IndexedMember(
                kind: .property(isSettable: isSettable && !setter),
                name: name,
                isStatic: isStatic(variable.modifiers),
                genericParameters: "",
                genericParameterNames: [],
                whereClause: "",
                parameters: [],
                isAsync: false,
                throwsClause: nil,
                resultType: type,
                resultShape: binding.typeAnnotation.map { TypeShape($0.type) } ?? TypeShape(parsing: type),
                attributes: Self.keptAttributes(variable.attributes),
                documentation: Self.documentation(variable.leadingTrivia),
                declaration: file.sourceLocation(of: binding.pattern),
                accessLevel: TypeCollector.explicitAccessLevel(variable.modifiers) ?? defaultAccess,
                order: nextOrder(),
                isExemptFromActorIsolation: isNonisolated(variable.modifiers) || isLet && binding.accessorBlock == nil)
        }
    }
}
#endif
