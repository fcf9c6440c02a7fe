#if Txkit
import SwiftSyntax

/// What a closure is passed to, and what it declares.
extension ClosureExprSyntax {
    /// The standard library's methods of sequences, collections and
    /// optionals that rethrow their closure's error.
    static let rethrowingMethods: Set<String> = [
        "map", "compactMap", "flatMap", "filter", "forEach", "reduce", "first", "last", "contains",
        "allSatisfy", "sorted", "min", "max", "firstIndex", "lastIndex", "drop", "prefix", "split",
    ]

    /// The transaction blocks of GRDB and TransactionKit, which all take
    /// throwing closures.
    private static let transactionBlocks: Set<String> = [
        "read", "write", "unsafeRead", "unsafeReentrantRead", "unsafeReentrantWrite", "inDatabase",
        "inTransaction", "writeWithoutTransaction", "barrierWriteWithoutTransaction",
    ]

    /// Whether the closure is the block of a transaction opened under `try`
    /// (`try dbPool.read { db in … }`, `try db.write { tx in … }`): GRDB's
    /// and TransactionKit's blocks all take throwing closures, so a `try`
    /// inside one compiles.
    var isTransactionBlock: Bool {
        var parent = parent
        if parent?.is(LabeledExprSyntax.self) == true { parent = parent?.parent?.parent }
        guard let call = parent?.as(FunctionCallExprSyntax.self),
              let callee = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return false }
        return Self.transactionBlocks.contains(callee.declName.baseName.text) && call.isCoveredByTry
    }

    /// Whether the closure declares a parameter named `name`.
    func declaresParameter(named name: String) -> Bool {
        switch signature?.parameterClause {
        case let .simpleInput(parameters)?:
            return parameters.contains { $0.name.text == name }
        case let .parameterClause(clause)?:
            return clause.parameters.contains { $0.internalName == name }
        case nil:
            return false
        }
    }

    /// What the call the closure is passed to calls: `pool.write` for
    /// `pool.write { db in … }` or `pool.write({ db in … })`.
    var calledExpressionText: String? {
        var current = Syntax(self)
        while let parent = current.parent {
            if let call = parent.as(FunctionCallExprSyntax.self) {
                return call.calledExpression.trimmedText
            }
            guard parent.is(LabeledExprSyntax.self) || parent.is(LabeledExprListSyntax.self) else { return nil }
            current = parent
        }
        return nil
    }

    /// The call of a rethrowing method of a known collection (see
    /// ``ExprSyntax/isKnownCollection``) that the closure is passed to, as
    /// its trailing closure or an argument.
    var rethrowingCall: FunctionCallExprSyntax? {
        var parent = parent
        if let labeled = parent?.as(LabeledExprSyntax.self) { parent = labeled.parent?.parent }
        guard let call = parent?.as(FunctionCallExprSyntax.self),
              call.trailingClosure?.id == id || call.arguments.contains(where: { $0.expression.id == id }),
              let method = call.calledExpression.as(MemberAccessExprSyntax.self),
              Self.rethrowingMethods.contains(method.declName.baseName.text),
              let base = method.base, base.isKnownCollection
        else { return nil }
        return call
    }
}
#endif
