#if Txkit
import SwiftSyntax

extension ShimPlan {
    /// Refuses a use that calls a member taking a legacy transaction on a
    /// value the consumer fetched from the legacy type itself
    /// (`let data = Legacy.fetchOrDefault(…, tx)`, then
    /// `data.update(…, tx)`): a shim stands for one service the consumer
    /// holds, and one wrapper cannot stand for every value a fetch returns.
    static func refuseCallsOnFetchedValues(
        _ use: ConsumerUse, _ members: [IndexedMember], legacy: IndexedType, isLegacyTransaction: (String) -> Bool
    ) throws {
        guard case let .variable(name) = use.base,
              members.contains(where: { $0.parameters.contains { isLegacyTransaction($0.type) } }),
              let initializer = initializer(of: name, before: Syntax(use.node)),
              let fetch = fetchCall(initializer, on: legacy, isLegacyTransaction: isLegacyTransaction)
        else { return }
        throw Refusal(
            .unsupportedUse, at: use.location,
            "\(use.text) calls \(legacy.name).\(use.memberName) on `\(name)`, a value fetched with `\(fetch)`: a "
                + "shim stands for one service, and one wrapper cannot stand for every value a fetch returns",
            fix: "convert \(legacy.name) to the Good Way (txkit convert), or give it a static member that takes "
                + "what identifies the value")
    }

    /// The initializer of the `let`/`var` named `name` declared before
    /// `node` in a block around it.
    private static func initializer(of name: String, before node: Syntax) -> ExprSyntax? {
        var current = node
        while let parent = current.parent {
            if let list = parent.as(CodeBlockItemListSyntax.self), let item = current.as(CodeBlockItemSyntax.self) {
                for candidate in list where candidate.position < item.position {
                    guard let variable = candidate.item.as(VariableDeclSyntax.self) else { continue }
                    for binding in variable.bindings
                    where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                        return binding.initializer?.value
                    }
                }
            }
            if parent.is(MemberBlockItemSyntax.self) { return nil }
            current = parent
        }
        return nil
    }

    /// `Legacy.member(…)` (under `try`, `try?`, `await`), when `expression`
    /// calls a static member of `legacy` that takes a legacy transaction (a
    /// fetch; an accessor such as `shared()` takes none).
    private static func fetchCall(
        _ expression: ExprSyntax, on legacy: IndexedType, isLegacyTransaction: (String) -> Bool
    ) -> String? {
        var expression = expression
        while true {
            if let tryExpression = expression.as(TryExprSyntax.self) {
                expression = tryExpression.expression
            } else if let awaitExpression = expression.as(AwaitExprSyntax.self) {
                expression = awaitExpression.expression
            } else {
                break
            }
        }
        guard let call = expression.as(FunctionCallExprSyntax.self),
              let access = call.calledExpression.as(MemberAccessExprSyntax.self),
              access.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == legacy.name
        else { return nil }
        let name = access.declName.baseName.text
        let fetches = legacy.allMembers.contains { member in
            member.name == name && member.isStatic && member.parameters.contains { isLegacyTransaction($0.type) }
        }
        return fetches ? "\(legacy.name).\(name)(…)" : nil
    }
}
#endif
