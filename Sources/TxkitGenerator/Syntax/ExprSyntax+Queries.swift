#if Txkit
import SwiftSyntax

/// What an expression is, as far as the source around it says.
extension ExprSyntax {
    /// Whether the expression is an array literal, or a parameter or local
    /// whose declared type is a collection or an optional (`ids.first` of
    /// one too).
    var isKnownCollection: Bool {
        if self.is(ArrayExprSyntax.self) || self.is(DictionaryExprSyntax.self) { return true }
        // `ids.first`, `ids.last`: an optional element of a known collection.
        if let access = self.as(MemberAccessExprSyntax.self), let base = access.base,
           ["first", "last"].contains(access.declName.baseName.text) {
            return base.isKnownCollection
        }
        guard let name = self.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        var type: TypeSyntax?
        if let (_, parameter) = enclosingFunctionParameter(named: name) {
            type = parameter.type
        } else {
            var current = Syntax(self)
            while let parent = current.parent, type == nil {
                if let list = parent.as(CodeBlockItemListSyntax.self), let item = current.as(CodeBlockItemSyntax.self) {
                    for candidate in list where candidate.position < item.position {
                        guard let binding = candidate.item.as(VariableDeclSyntax.self)?.bindings.first(where: {
                            $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                        }) else { continue }
                        if binding.initializer?.value.is(ArrayExprSyntax.self) == true { return true }
                        type = binding.typeAnnotation?.type
                    }
                }
                if parent.is(MemberBlockItemSyntax.self) { break }
                current = parent
            }
        }
        guard let type else { return false }
        if type.is(ArrayTypeSyntax.self) || type.is(DictionaryTypeSyntax.self) || type.is(OptionalTypeSyntax.self) {
            return true
        }
        let named = type.as(IdentifierTypeSyntax.self)?.name.text
        return ["Array", "Set", "Dictionary", "ContiguousArray", "Optional"].contains(named ?? "")
    }

    /// The type of the receiver of this expression, a function called or
    /// referenced (`m`, `self.m`, `x.m`), in the shapes a caller writes: the
    /// enclosing type for `m` and `self.m`, `T` for `T(…).m`, and for `x.m`
    /// a local declared `let x: T` or `let x = T(…)`, or a parameter
    /// declared with type `T`. `nil` otherwise.
    var receiverType: String? {
        guard let access = self.as(MemberAccessExprSyntax.self) else {
            return self.is(DeclReferenceExprSyntax.self) ? enclosingTypeName : nil
        }
        guard let base = access.base else { return nil }
        if let construction = base.as(FunctionCallExprSyntax.self) {
            return construction.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text.typeNameOrNil
        }
        guard let reference = base.as(DeclReferenceExprSyntax.self) else { return nil }
        let name = reference.baseName.text
        if reference.baseName.tokenKind == .keyword(.self) { return enclosingTypeName }
        if let local = localDeclaration(named: name),
           let binding = local.item.item.as(VariableDeclSyntax.self)?.bindings.first {
            if let annotated = binding.typeAnnotation?.type.trimmedText { return annotated }
            var value = binding.initializer?.value
            if let tried = value?.as(TryExprSyntax.self) { value = tried.expression }
            return value?.as(FunctionCallExprSyntax.self)?.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
                .typeNameOrNil
        }
        if let (_, parameter) = enclosingFunctionParameter(named: name) {
            return parameter.type.trimmedText
        }
        return nil
    }
}

extension FunctionCallExprSyntax {
    /// The type of the call's receiver (see ``ExprSyntax/receiverType``).
    var receiverType: String? { calledExpression.receiverType }

    /// The call's first line, shortened to 80 characters, for messages.
    var firstLine: String {
        let text = trimmedText.split(separator: "\n").first.map(String.init) ?? ""
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }
}

extension String {
    /// The name itself when it is spelled as a type (an upper-case first
    /// letter: `TaskManager(…)` constructs, `makeManager(…)` does not).
    fileprivate var typeNameOrNil: String? { first?.isUppercase == true ? self : nil }
}
#endif
