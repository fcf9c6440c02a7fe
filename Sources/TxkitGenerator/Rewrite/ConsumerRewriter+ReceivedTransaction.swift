#if Txkit
import SwiftSyntax

extension ConsumerRewriter {
    /// The one step `--apply` asks for when a consumer passes on a legacy
    /// transaction it did not build from a TransactionKit transaction: one
    /// it receives from its callers (a parameter), or the connection of a
    /// transaction block the application opens itself (`pool.write { db in
    /// … }`). `nil` when the transaction comes from elsewhere.
    static func receivedTransactionStep(
        _ expression: ExprSyntax, kind: TransactionKind, consumer: String,
        legacyTransaction: GeneratorConfiguration.LegacyTransaction?
    ) -> String? {
        guard let reference = expression.as(DeclReferenceExprSyntax.self) else { return nil }
        let name = reference.baseName.text
        let reverse = { (legacy: String) in
            legacyTransaction?.reverseBridge(for: kind, legacy: legacy)
                ?? (kind == .write
                    ? "db.writeTransaction(bridging: \(legacy))" : "db.readTransaction(bridging: \(legacy))")
        }
        var current = Syntax(expression)
        while let parent = current.parent {
            if let closure = parent.as(ClosureExprSyntax.self), declares(closure, name) {
                let block = calledExpression(of: closure).map { "`\($0) { \(name) in … }`" } ?? "a closure"
                return "`\(name)` is the connection of \(block), a transaction the application opens itself. "
                    + "One step, once per such block: pass `\(reverse(name))` (txkit.json's reverseBridge; the "
                    + "SQLiteDB that adopted the application's database), or replace the block by the adopted "
                    + "SQLiteDB's own `write { tx in … }` / `read { tx in … }` and pass `tx`; then run --apply "
                    + "again (Guides/MigratingLegacyFinders.md, \"A consumer that still receives a legacy "
                    + "transaction\")"
            }
            if let function = parent.as(FunctionDeclSyntax.self) {
                guard function.signature.parameterClause.parameters.contains(where: {
                    ($0.secondName ?? $0.firstName).text == name
                }) else { return nil }
                return "`\(name)` is a parameter of \(consumer).\(function.name.text): \(consumer) still receives "
                    + "the legacy transaction from its callers. One step: make \(function.name.text) take "
                    + "`\(name): \(kind)` and pass it on here, and have each caller that holds a legacy "
                    + "transaction pass `\(reverse("<its transaction>"))` (txkit.json's reverseBridge); then run "
                    + "--apply again (Guides/MigratingLegacyFinders.md, \"A consumer that still receives a legacy "
                    + "transaction\")"
            }
            current = parent
        }
        return nil
    }

    private static func declares(_ closure: ClosureExprSyntax, _ name: String) -> Bool {
        switch closure.signature?.parameterClause {
        case let .simpleInput(parameters)?:
            return parameters.contains { $0.name.text == name }
        case let .parameterClause(clause)?:
            return clause.parameters.contains { ($0.secondName ?? $0.firstName).text == name }
        case nil:
            return false
        }
    }

    /// `pool.write` for `pool.write { db in … }` or `pool.write({ db in … })`.
    private static func calledExpression(of closure: ClosureExprSyntax) -> String? {
        var current = Syntax(closure)
        while let parent = current.parent {
            if let call = parent.as(FunctionCallExprSyntax.self) {
                return call.calledExpression.trimmedDescription
            }
            guard parent.is(LabeledExprSyntax.self) || parent.is(LabeledExprListSyntax.self) else { return nil }
            current = parent
        }
        return nil
    }
}
#endif
