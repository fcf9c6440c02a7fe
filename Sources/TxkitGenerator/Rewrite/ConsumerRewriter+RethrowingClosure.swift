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
    /// The standard library's methods of sequences, collections and
    /// optionals that rethrow their closure's error.
    static let rethrowingMethods: Set<String> = [
        "map", "compactMap", "flatMap", "filter", "forEach", "reduce", "first", "last", "contains",
        "allSatisfy", "sorted", "min", "max", "firstIndex", "lastIndex", "drop", "prefix", "split",
    ]

    /// The call of a rethrowing method of a known collection that
    /// `closure` is passed to (as its trailing closure or an argument).
    static func rethrowingCall(passing closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        var parent = closure.parent
        if let labeled = parent?.as(LabeledExprSyntax.self) { parent = labeled.parent?.parent }
        guard let call = parent?.as(FunctionCallExprSyntax.self),
              call.trailingClosure?.id == closure.id || call.arguments.contains(where: { $0.expression.id == closure.id }),
              let method = call.calledExpression.as(MemberAccessExprSyntax.self),
              rethrowingMethods.contains(method.declName.baseName.text),
              let base = method.base, isKnownCollection(base)
        else { return nil }
        return call
    }

    /// Whether `expression` is an array literal, or a parameter or local
    /// whose declared type is a collection or an optional.
    static func isKnownCollection(_ expression: ExprSyntax) -> Bool {
        if expression.is(ArrayExprSyntax.self) || expression.is(DictionaryExprSyntax.self) { return true }
        // `ids.first`, `ids.last`: an optional element of a known collection.
        if let access = expression.as(MemberAccessExprSyntax.self), let base = access.base,
           ["first", "last"].contains(access.declName.baseName.text) {
            return isKnownCollection(base)
        }
        guard let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        var type: TypeSyntax?
        if let (_, parameter) = enclosingParameter(named: name, of: Syntax(expression)) {
            type = parameter.type
        } else {
            var current = Syntax(expression)
            while let parent = current.parent, type == nil {
                if let list = parent.as(CodeBlockItemListSyntax.self), let item = current.as(CodeBlockItemSyntax.self) {
                    for candidate in list where candidate.position < item.position {
                        guard let binding = candidate.item.as(VariableDeclSyntax.self)?.bindings.first(where: {
                            $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                        }) else { continue }
                        if binding.initializer?.value.is(ArrayExprSyntax.self) == true { return true }
                        type = binding.typeAnnotation?.type
                    }
                }
                if parent.is(MemberBlockItemSyntax.self) { break }
                current = parent
            }
        }
        guard let type else { return false }
        if type.is(ArrayTypeSyntax.self) || type.is(DictionaryTypeSyntax.self) || type.is(OptionalTypeSyntax.self) {
            return true
        }
        let named = type.as(IdentifierTypeSyntax.self)?.name.text
        return ["Array", "Set", "Dictionary", "ContiguousArray", "Optional"].contains(named ?? "")
    }

    /// Makes `closure` throw where its signature is explicit (`(isbn:
    /// String) -> String? in` gets `throws`; a closure whose type is
    /// inferred throws once its body does), and puts `try` before `call`,
    /// the rethrowing call it is passed to.
    mutating func makeThrow(_ closure: ClosureExprSyntax, passedTo call: FunctionCallExprSyntax, in file: SourceFile) {
        if let signature = closure.signature, signature.effectSpecifiers?.throwsClause == nil {
            if let returnClause = signature.returnClause {
                edits.insertOnce("throws ", at: returnClause.positionAfterSkippingLeadingTrivia, in: file)
            } else if case let .parameterClause(clause)? = signature.parameterClause {
                edits.insertOnce(" throws", at: clause.endPositionBeforeTrailingTrivia, in: file)
            }
        }
        if !Self.isCoveredByTry(Syntax(call)) {
            edits.insertOnce("try ", at: Self.tryPosition(for: Syntax(call)), in: file)
        }
    }
}
#endif
