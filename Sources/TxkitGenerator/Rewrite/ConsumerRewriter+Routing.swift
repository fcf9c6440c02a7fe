#if Txkit
import SwiftSyntax

/// Each use routed through the shim property: its call, its transaction
/// argument, the bridge locals that become unused.
extension ConsumerRewriter {
    /// Routes `use` through the shim property `property`: its base becomes
    /// the property, its legacy transaction the TransactionKit transaction
    /// (a bridge local it read goes to `bridgeLocals`), and it is tried
    /// where the shim throws (a method it is in goes to `throwingMethods`).
    func route(
        _ use: ConsumerUse, through property: String, edits: inout EditBuffer, bridgeLocals: inout [BridgeLocal],
        throwingMethods: inout [ThrowingMethod]
    ) throws {
        if use.node.isInStaticMember {
            throw Refusal(
                .cannotApply, at: use.location,
                "\(use.text) is in a static member of \(consumerName), which has no instance to hold \(shimType)",
                fix: "move it to an instance member or edit it by hand")
        }
        let configuration = configuration
        let isLegacyTransaction = configuration.isLegacyTransaction
        // An accessor that hands out the legacy type (a singleton, a
        // factory without a transaction). A finder that takes a legacy
        // transaction and returns a value of the type (`Book.fetch(isbn:in:)`)
        // is routed: the value's data stays as it is, and its members that
        // take a legacy transaction are uses of their own, refused there.
        if let resolved = try ShimPlan.resolve(use, in: plan.legacy, isLegacyTransaction: isLegacyTransaction).first?.0,
           !resolved.parameters.contains(where: { isLegacyTransaction($0.type) }),
           let result = resolved.resultType, LegacyBodies.bareType(result) == legacyName {
            throw Refusal(
                .cannotApply, at: use.location,
                "\(use.text) returns a \(legacyName) (a singleton or a factory): through the shim it would still "
                    + "hand out the legacy type, whose calls keep their legacy transactions",
                fix: "call those members on a stored property of \(consumerName) instead, or edit this use by hand")
        }
        switch use.base {
        case .type, .expression:
            if let base = use.node.base {
                edits.replace(base, in: use.file, with: "self.\(property)")
            }
        case .storedProperty, .variable:
            break
        }
        guard case let .call(labels) = use.form,
              let call = use.node.parent?.as(FunctionCallExprSyntax.self)
        else { return }
        guard let member = try ShimPlan.resolve(use, in: plan.legacy, isLegacyTransaction: isLegacyTransaction)
            .first?.0,
            let shimMember = plan.members.first(where: { ($0.declared ?? $0.legacy) == member }),
            let index = member.parameters.firstIndex(where: { isLegacyTransaction($0.type) })
        else { return }
        let parameter = member.parameters[index]

        let matcher = CallMatcher(member: member, shimForm: false, isLegacyTransaction: isLegacyTransaction)
        let arguments = Array(call.arguments)
        guard let filled = matcher.argumentParameters(labels),
              let position = filled.firstIndex(of: index), position < arguments.count
        else {
            throw Refusal(
                .cannotApply, at: use.location, "\(use.text) passes its \(parameter.type) in a trailing closure or not at all",
                fix: "pass it as an argument, then run again")
        }
        let argument = arguments[position]
        let transaction = try self.arguments.transaction(
            for: argument.expression, type: parameter.type, kind: shimMember.transactions[index] ?? .read,
            use: use, bridgeLocals: &bridgeLocals)
        if shimMember.transactions[index] == .write, use.context == .read {
            throw Refusal(
                .cannotApply, at: use.location,
                "\(use.text) runs in a read transaction, but \(legacyName).\(member.displayName) writes "
                    + "(\(shimMember.decision.map { "\($0.reason), rule: \($0.rule.rawValue)" } ?? "configured")), so "
                    + "its shim takes a DBWriteTransaction",
                fix: "call it inside a write transaction, or list it in readMembers of txkit.json if it only reads")
        }
        edits.add(TextEdit(
            start: argument.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: argument.expression.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: transaction), in: use.file)

        // The shim throws where the legacy member may not have.
        if shimMember.shimThrowsClause == "throws", member.throwsClause == nil || member.throwsClause == "rethrows",
           !call.isCoveredByTry {
            // In a closure, `try` would make the closure throw, and the call
            // it is passed to (`compactMap`) would need a `try` of its own,
            // or fail to compile against an explicit non-throwing signature.
            var around = Syntax(call)
            if around.isInNonThrowingClosure,
               let closure = around.innermostClosure,
               let rethrowing = closure.rethrowingCall {
                // `ids.compactMap { id in … }`: the closure throws and the
                // call it is passed to is tried (ConsumerRewriter+RethrowingClosure).
                makeThrow(closure, passedTo: rethrowing, in: use.file, edits: &edits)
                around = Syntax(rethrowing)
            }
            if around.isInNonThrowingClosure {
                throw Refusal(
                    .cannotApply, at: use.location,
                    "\(use.text) is in a closure, and its shim throws where \(legacyName).\(member.displayName) "
                        + "does not: the closure would have to throw",
                    fix: "move the call out of the closure (or mark it `try` and let the closure throw), then run again")
            }
            // The method around it then throws too, and its callers `try`
            // (see ConsumerRewriter+ThrowingMethods).
            if around.isInNonThrowingFunction {
                try requireThrowing(
                    around: around, for: use, legacyMember: "\(legacyName).\(member.displayName)",
                    methods: &throwingMethods)
            }
            edits.insertOnce("try ", at: call.tryPosition, in: use.file)
        }
    }
}
#endif
