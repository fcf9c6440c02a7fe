#if Txkit
import SwiftSyntax

/// Whether a subtree holds a `try`.
final class TryFinder: SyntaxVisitor {
    private var found = false

    func finds(in closure: ClosureExprSyntax) -> Bool {
        walk(closure.statements)
        return found
    }

    override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }
}
#endif
