#if Txkit
import SwiftSyntax

/// What declarations declare.
extension DeclSyntax {
    /// Whether the declaration is a property or a function named `name`.
    func declares(_ name: String) -> Bool {
        if let variable = self.as(VariableDeclSyntax.self) {
            return variable.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }
        }
        if let function = self.as(FunctionDeclSyntax.self) {
            return function.name.text == name
        }
        return false
    }
}

extension MemberBlockSyntax {
    /// The initializers that set stored properties (not `convenience` ones).
    var designatedInitializers: [InitializerDeclSyntax] {
        members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }.filter { initializer in
            !initializer.modifiers.contains { $0.name.text == "convenience" }
        }
    }

    /// Whether the block declares `name` as a stored `let` (no accessors).
    func declaresStoredLet(_ name: String) -> Bool {
        members.contains { item in
            guard let variable = item.decl.as(VariableDeclSyntax.self),
                  variable.bindingSpecifier.tokenKind == .keyword(.let)
            else { return false }
            return variable.bindings.contains {
                $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name && $0.accessorBlock == nil
            }
        }
    }
}

extension InitializerDeclSyntax {
    /// Whether it is declared `public` or `open`.
    var isPublic: Bool { modifiers.contains { ["public", "open"].contains($0.name.text) } }
}

extension FunctionDeclSyntax {
    /// The argument labels, `nil` for `_`.
    var argumentLabels: [String?] {
        signature.parameterClause.parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
    }
}

extension FunctionParameterSyntax {
    /// The parameter's name inside the function (`id` in `by id: Int64`).
    var internalName: String { (secondName ?? firstName).text }
}

extension ClosureParameterSyntax {
    /// The parameter's name inside the closure.
    var internalName: String { (secondName ?? firstName).text }
}

extension CodeBlockItemSyntax {
    /// Whether the statement is an assignment: `self.x = y` or `x = y`.
    var isAssignment: Bool {
        guard let sequence = item.as(SequenceExprSyntax.self) else { return false }
        let elements = Array(sequence.elements)
        return elements.count == 3 && elements[1].is(AssignmentExprSyntax.self)
    }
}
#endif
