#if Txkit
import SwiftSyntax

/// A use in a closure passed to a collection's rethrowing method
/// (`isbns.compactMap { isbn in Book.fetch(isbn: isbn, in: context) }`),
/// whose shim throws where the legacy member does not: the closure throws
/// (its explicit signature says `throws`), and the call it is passed to
/// gets its own `try`, as Swift asks of a rethrowing call. Found in the
/// corpus's ShelfOrganizer, which `--apply` refused.
///
/// Only where the receiver is known to be a collection or an optional:
/// a parameter or local declared `[T]`, `[K: V]`, `Set<T>`, `Array<T>`,
/// `Dictionary<K, V>` or `T?`, an array literal, or the `first` or `last`
/// of one of those. A `map` of another type
/// (a Combine publisher's) takes a closure that must not throw.
extension ConsumerRewriter {
    /// Makes `closure` throw where its signature is explicit (`(isbn:
    /// String) -> String? in` gets `throws`; a closure whose type is
    /// inferred throws once its body does), and puts `try` before `call`,
    /// the rethrowing call it is passed to.
    func makeThrow(
        _ closure: ClosureExprSyntax, passedTo call: FunctionCallExprSyntax, in file: SourceFile, edits: inout EditBuffer
    ) {
        if let signature = closure.signature, signature.effectSpecifiers?.throwsClause == nil {
            if let returnClause = signature.returnClause {
                edits.insertOnce("throws ", at: returnClause.positionAfterSkippingLeadingTrivia, in: file)
            } else if case let .parameterClause(clause)? = signature.parameterClause {
                edits.insertOnce(" throws", at: clause.endPositionBeforeTrailingTrivia, in: file)
            }
        }
        if !call.isCoveredByTry {
            edits.insertOnce("try ", at: call.tryPosition, in: file)
        }
    }
}
#endif
