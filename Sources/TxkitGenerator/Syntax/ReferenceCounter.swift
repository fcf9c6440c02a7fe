#if Txkit
import SwiftSyntax

/// The positions of the references to one name in a subtree.
final class ReferenceCounter: SyntaxVisitor {
    let name: String
    var positions: Set<Int> = []

    init(name: String) {
        self.name = name
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.baseName.text == name { positions.insert(node.position.utf8Offset) }
        return .visitChildren
    }
}
#endif
