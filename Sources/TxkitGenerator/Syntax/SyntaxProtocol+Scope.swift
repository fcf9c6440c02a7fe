#if Txkit
import SwiftSyntax

/// What encloses a node: its type, function, parameters and locals, as the
/// source declares them (no type checking).
extension SyntaxProtocol {
    /// The name of the type (or extended type) around the node.
    var enclosingTypeName: String? {
        var current = Syntax(self)
        while let parent = current.parent {
            if let named = parent.asProtocol((any NamedDeclSyntax).self), parent.is(ClassDeclSyntax.self)
                || parent.is(StructDeclSyntax.self) || parent.is(ActorDeclSyntax.self) || parent.is(EnumDeclSyntax.self) {
                return named.name.text
            }
            if let extended = parent.as(ExtensionDeclSyntax.self) {
                return extended.extendedType.trimmedText
            }
            current = parent
        }
        return nil
    }

    /// The function declaration around the node, inside its member.
    var enclosingFunction: FunctionDeclSyntax? {
        var current = parent
        while let node = current {
            if let function = node.as(FunctionDeclSyntax.self) { return function }
            if node.is(MemberBlockItemSyntax.self) { return nil }
            current = node.parent
        }
        return nil
    }

    /// The function around the node and its parameter named `name` (inside
    /// the function), if the function declares one.
    func enclosingFunctionParameter(named name: String) -> (FunctionDeclSyntax, FunctionParameterSyntax)? {
        var current = Syntax(self)
        while let parent = current.parent {
            if let function = parent.as(FunctionDeclSyntax.self) {
                guard let parameter = function.signature.parameterClause.parameters.first(where: {
                    $0.internalName == name
                }) else { return nil }
                return (function, parameter)
            }
            if parent.is(MemberBlockItemSyntax.self) { return nil }
            current = parent
        }
        return nil
    }

    /// The declared type of the parameter `name` of the initializer around
    /// the node (for `self.init(x: x)`), if it has one.
    func enclosingInitializerParameterType(named name: String) -> String? {
        var current = Syntax(self)
        while let parent = current.parent {
            if let initializer = parent.as(InitializerDeclSyntax.self) {
                return initializer.signature.parameterClause.parameters.first { $0.internalName == name }?
                    .type.trimmedText
            }
            current = parent
        }
        return nil
    }

    /// The `let name = …` declared before the node in a block around it,
    /// inside its member: the statement and the list that holds it.
    func localDeclaration(named name: String) -> (item: CodeBlockItemSyntax, list: CodeBlockItemListSyntax)? {
        var current = Syntax(self)
        while let parent = current.parent {
            if let list = parent.as(CodeBlockItemListSyntax.self), let item = current.as(CodeBlockItemSyntax.self) {
                for candidate in list where candidate.position < item.position {
                    guard let variable = candidate.item.as(VariableDeclSyntax.self),
                          variable.bindingSpecifier.tokenKind == .keyword(.let),
                          variable.bindings.count == 1,
                          variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                    else { continue }
                    return (candidate, list)
                }
            }
            if parent.is(MemberBlockItemSyntax.self) { return nil }
            current = parent
        }
        return nil
    }

    /// Whether the node is inside a `static` or `class` member of its type.
    var isInStaticMember: Bool {
        var current = Syntax(self)
        while let parent = current.parent {
            if parent.is(MemberBlockItemSyntax.self) {
                let modifiers = current.asProtocol((any WithModifiersSyntax).self)?.modifiers
                return modifiers?.contains { $0.name.text == "static" || $0.name.text == "class" } ?? false
            }
            current = parent
        }
        return false
    }

    /// The innermost closure around the node, inside its function.
    var innermostClosure: ClosureExprSyntax? {
        var current = parent
        while let candidate = current {
            if let closure = candidate.as(ClosureExprSyntax.self) { return closure }
            if candidate.is(FunctionDeclSyntax.self) || candidate.is(MemberBlockItemSyntax.self) { return nil }
            current = candidate.parent
        }
        return nil
    }

    /// The spaces that start the line the node starts.
    var indentation: String {
        var indent = ""
        for piece in leadingTrivia {
            switch piece {
            case .newlines, .carriageReturnLineFeeds, .carriageReturns: indent = ""
            case let .spaces(count): indent += String(repeating: " ", count: count)
            case let .tabs(count): indent += String(repeating: "\t", count: count)
            default: break
            }
        }
        return indent
    }
}
#endif
