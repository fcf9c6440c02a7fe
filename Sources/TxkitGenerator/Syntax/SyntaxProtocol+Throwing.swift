#if Txkit
import SwiftSyntax

/// Whether code around a node throws, and where a `try` goes.
extension SyntaxProtocol {
    /// Whether a `try` to the left already covers the node.
    var isCoveredByTry: Bool {
        var current = parent
        while let node = current {
            if node.is(TryExprSyntax.self) { return true }
            if node.is(CodeBlockItemSyntax.self) || node.is(ClosureExprSyntax.self) || node.is(MemberBlockItemSyntax.self) {
                return false
            }
            current = node.parent
        }
        return false
    }

    /// Whether the innermost closure around the node does not throw yet: it
    /// says no `throws` and holds no `try` (a `db.write { tx in … }` block
    /// holds some, see ``ClosureExprSyntax/isTransactionBlock``).
    var isInNonThrowingClosure: Bool {
        var current = parent
        while let node = current {
            if let closure = node.as(ClosureExprSyntax.self) {
                if closure.signature?.effectSpecifiers?.throwsClause != nil { return false }
                if closure.isTransactionBlock { return false }
                return !TryFinder(viewMode: .sourceAccurate).finds(in: closure)
            }
            if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self)
                || node.is(AccessorDeclSyntax.self) || node.is(MemberBlockItemSyntax.self) {
                return false
            }
            current = node.parent
        }
        return false
    }

    /// Whether the function, initializer or accessor around the node (with
    /// no closure between them) does not throw.
    var isInNonThrowingFunction: Bool {
        var current = parent
        while let node = current {
            if node.is(ClosureExprSyntax.self) { return false }
            if let function = node.as(FunctionDeclSyntax.self) {
                return function.signature.effectSpecifiers?.throwsClause == nil
            }
            if let initializer = node.as(InitializerDeclSyntax.self) {
                return initializer.signature.effectSpecifiers?.throwsClause == nil
            }
            if let accessor = node.as(AccessorDeclSyntax.self) {
                return accessor.effectSpecifiers?.throwsClause == nil
            }
            if node.is(MemberBlockItemSyntax.self) { return false }
            current = node.parent
        }
        return false
    }

    /// Where `try` goes for the node, a call: before it (and its `await`),
    /// or before the operator sequence it ends (`try` cannot follow a
    /// binary operator).
    var tryPosition: AbsolutePosition {
        var call = Syntax(self)
        if let awaited = call.parent?.as(AwaitExprSyntax.self) { call = Syntax(awaited) }
        if let sequence = call.parent?.parent?.as(SequenceExprSyntax.self), call.parent?.is(ExprListSyntax.self) == true,
           sequence.elements.first?.id != call.id {
            return sequence.positionAfterSkippingLeadingTrivia
        }
        return call.positionAfterSkippingLeadingTrivia
    }

    /// Why a `try` cannot be added before the node, a call, or `nil` when
    /// it can: the function, initializer or accessor around it throws
    /// untyped errors (or is one of `throwingFunctions`, about to), or the
    /// closure around it already throws (see ``isInNonThrowingClosure``).
    func whyTryIsNotAllowed(throwingFunctions: Set<SyntaxIdentifier>) -> String? {
        var current = parent
        while let candidate = current {
            if let closure = candidate.as(ClosureExprSyntax.self) {
                return closure.statements.isInNonThrowingClosure ? "is in a closure that does not throw" : nil
            }
            if candidate.is(DeferStmtSyntax.self) { return "is in a `defer` block, which cannot throw" }
            if let function = candidate.as(FunctionDeclSyntax.self) {
                if throwingFunctions.contains(function.id) { return nil }
                return function.signature.effectSpecifiers?.throwsClause?.isUntyped == true
                    ? nil : "is in a function that does not throw (or throws another way)"
            }
            if let initializer = candidate.as(InitializerDeclSyntax.self) {
                return initializer.signature.effectSpecifiers?.throwsClause?.isUntyped == true
                    ? nil : "is in an initializer that does not throw"
            }
            if let accessor = candidate.as(AccessorDeclSyntax.self) {
                return accessor.effectSpecifiers?.throwsClause?.isUntyped == true
                    ? nil : "is in an accessor that does not throw"
            }
            if candidate.is(MemberBlockItemSyntax.self) || candidate.is(SourceFileSyntax.self) {
                return "is not in a function that throws"
            }
            current = candidate.parent
        }
        return "is not in a function that throws"
    }
}

extension ThrowsClauseSyntax {
    /// `throws` or `throws(any Error)`: a clause through which any error
    /// passes (not `rethrows`, not a typed `throws(E)`).
    var isUntyped: Bool {
        guard throwsSpecifier.tokenKind == .keyword(.throws) else { return false }
        guard let type = type?.trimmedText else { return true }
        return type == "any Error" || type == "Error"
    }
}
#endif
