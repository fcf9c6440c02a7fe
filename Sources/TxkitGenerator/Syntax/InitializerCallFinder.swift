#if Txkit
import SwiftSyntax

/// The calls of a type's initializers: `Type(…)`, `Type.init(…)`, and
/// with `selfInit` (in the type's own files) `self.init(…)`.
final class InitializerCallFinder: SyntaxVisitor {
    let type: String
    let selfInit: Bool
    var calls: [FunctionCallExprSyntax] = []
    var selfInitCalls: Set<SyntaxIdentifier> = []

    init(type: String, selfInit: Bool) {
        self.type = type
        self.selfInit = selfInit
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let called = node.calledExpression
        if called.as(DeclReferenceExprSyntax.self)?.baseName.text == type {
            calls.append(node)
        } else if let access = called.as(MemberAccessExprSyntax.self), access.declName.baseName.tokenKind == .keyword(.`init`) {
            if access.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == type {
                calls.append(node)
            } else if selfInit, access.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
                calls.append(node)
                selfInitCalls.insert(node.id)
            }
        }
        return .visitChildren
    }
}
#endif
