#if Txkit
import SwiftSyntax

/// The calls of methods named `name` (`x.name(…)`, `name(…)`), and the
/// declarations of functions with that name, in a subtree.
final class MethodCallFinder: SyntaxVisitor {
    let name: String
    var calls: [FunctionCallExprSyntax] = []
    var declarations: [FunctionDeclSyntax] = []

    init(name: String) {
        self.name = name
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let called = node.calledExpression
        if called.as(DeclReferenceExprSyntax.self)?.baseName.text == name
            || called.as(MemberAccessExprSyntax.self)?.declName.baseName.text == name {
            calls.append(node)
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.name.text == name { declarations.append(node) }
        return .visitChildren
    }
}
#endif
