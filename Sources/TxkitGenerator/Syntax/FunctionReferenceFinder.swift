#if Txkit
import SwiftSyntax

/// The references of functions named `name` that are not called
/// (`let f = manager.archive`, `items.map(archive(_:))`), in the files it
/// walks: such a reference keeps the function's type, which a call does not.
final class FunctionReferenceFinder: SyntaxVisitor {
    /// A reference, with the file it is in.
    struct Reference {
        var reference: ExprSyntax
        var file: SourceFile
    }

    let name: String
    private(set) var references: [Reference] = []
    private var file: SourceFile?

    init(name: String) {
        self.name = name
        super.init(viewMode: .sourceAccurate)
    }

    /// Adds the references of `file`.
    func walk(_ file: SourceFile) {
        self.file = file
        walk(file.tree)
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        if node.declName.baseName.text == name, !Self.isCalled(ExprSyntax(node)), let file {
            references.append(Reference(reference: ExprSyntax(node), file: file))
        }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.baseName.text == name, node.parent?.is(MemberAccessExprSyntax.self) != true,
           !Self.isCalled(ExprSyntax(node)), let file {
            references.append(Reference(reference: ExprSyntax(node), file: file))
        }
        return .visitChildren
    }

    /// Whether `expression` is what a call calls.
    private static func isCalled(_ expression: ExprSyntax) -> Bool {
        expression.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == expression.id
    }
}
#endif
