#if Txkit
import SwiftSyntax

/// The nodes of a consumer's declaration that ``ConsumerAccess`` counts,
/// each kind in source order, found in one walk (four generic
/// `descendants` walks of every declaration were most of the inventory).
final class AccessNodes: SyntaxVisitor {
    private(set) var calls: [FunctionCallExprSyntax] = []
    private(set) var functions: [FunctionDeclSyntax] = []
    private(set) var references: [DeclReferenceExprSyntax] = []
    private(set) var identifierTypes: [IdentifierTypeSyntax] = []

    /// Walks `node` and everything below it.
    init(in node: some SyntaxProtocol) {
        super.init(viewMode: .sourceAccurate)
        walk(node)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        calls.append(node)
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        functions.append(node)
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        references.append(node)
        return .visitChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        identifierTypes.append(node)
        return .visitChildren
    }
}
#endif
