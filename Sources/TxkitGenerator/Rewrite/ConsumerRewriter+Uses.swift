#if Txkit
import SwiftSyntax

/// Each use routed through the shim property: its call, its transaction
/// argument, the bridge locals that become unused.
extension ConsumerRewriter {
    mutating func route(_ use: ConsumerUse, through property: String) throws {
        if use.node.isInStaticMember {
            throw Refusal(
                .cannotApply, at: use.location,
                "\(use.text) is in a static member of \(consumerName), which has no instance to hold \(shimType)",
                fix: "move it to an instance member or edit it by hand")
        }
        let configuration = configuration
        let isLegacyTransaction = { (type: String) in configuration.legacyTransaction(forParameterType: type) != nil }
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
        let transaction = try transactionExpression(
            argument.expression, type: parameter.type, kind: shimMember.transactions[index] ?? .read,
            use: use)
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
                makeThrow(closure, passedTo: rethrowing, in: use.file)
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
            // (see ConsumerRewriter+Throws).
            if around.isInNonThrowingFunction {
                try requireThrowing(around: around, for: use, legacyMember: "\(legacyName).\(member.displayName)")
            }
            edits.insertOnce("try ", at: call.tryPosition, in: use.file)
        }
    }

    /// The TransactionKit transaction inside a legacy transaction argument:
    /// the bridge written inline, or a local initialized with it.
    ///
    /// Every configured bridge is recognised, not only the parameter
    /// type's: a legacy layer with a read and a write transaction passes
    /// one where the other is taken (a write transaction built with the
    /// write bridge, handed to a member that takes the read type).
    mutating func transactionExpression(
        _ expression: ExprSyntax, type: String, kind: TransactionKind, use: ConsumerUse
    ) throws -> String {
        guard let ownBridge = configuration.legacyTransaction(forParameterType: type)?.bridge else {
            throw Refusal(
                .cannotApply, at: use.location, "\(type) has no bridge in txkit.json",
                fix: "give its legacyTransactions entry a bridge (Guides/Configuration.md)")
        }
        let bridges = [ownBridge] + configuration.legacyTransactions.map(\.bridge).filter { $0 != ownBridge }
        let matchAny = { (candidate: ExprSyntax) in bridges.lazy.compactMap { Self.match(candidate, bridge: $0) }.first }
        if let inner = matchAny(expression) {
            return inner
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self),
           let local = BridgeLocal(named: reference.baseName.text, before: expression, file: use.file),
           let value = local.item.item.as(VariableDeclSyntax.self)?.bindings.first?.initializer?.value,
           let inner = matchAny(value) {
            BridgeLocal.record(reference, to: local, in: &bridgeLocals)
            return inner
        }
        var received = expression
        if let (name, scope) = Self.blockConnection(expression, isLegacyTransactionType: { configuration.legacyTransaction(named: $0) != nil }),
           type == "Database" || expression.is(FunctionCallExprSyntax.self) || scope.is(ClosureExprSyntax.self)
            || Self.isGRDBConnection(name, scope: scope, consumer: plan.consumer) {
            if let transaction = try blockTransaction(
                connection: name, scope: scope, before: Syntax(expression), kind: kind) {
                return transaction
            }
            // `AppReadTransaction(db)`: the step is about `db`.
            if let call = expression.as(FunctionCallExprSyntax.self), let inner = call.arguments.first?.expression {
                received = inner
            }
        }
        // An app transaction received from the caller, which keeps GRDB's
        // connection: bridged through the type, as a received `Database` is.
        if configuration.legacyTransaction(forParameterType: type)?.reverseBridge == nil, sourcesAdoptAPool,
           let connection = grdbConnection(ofReceived: expression) {
            return "try \(Self.lookupBridge(kind, connection))"
        }
        if let step = Self.receivedTransactionStep(
            received, kind: kind, consumer: consumerName,
            legacyTransaction: configuration.legacyTransaction(forParameterType: type)) {
            throw Refusal(.cannotApply, at: use.location, "\(use.text): \(step)")
        }
        throw Refusal(
            .cannotApply, at: use.location,
            "\(use.text): its \(type) `\(expression.trimmedDescription)` is not built with a bridge of txkit.json "
                + "(\(bridges.joined(separator: " or "))) here or in a local, so --apply cannot tell which "
                + "TransactionKit transaction to pass",
            fix: "edit this call by hand")
    }

    /// The text `$tx` stands for when `expression` is `bridge`, spaces aside.
    static func match(_ expression: ExprSyntax, bridge: String) -> String? {
        let squeeze = { (text: String) in text.filter { !$0.isWhitespace } }
        let parts = bridge.components(separatedBy: "$tx")
        guard parts.count == 2 else { return nil }
        let text = squeeze(expression.trimmedDescription)
        let (prefix, suffix) = (squeeze(parts[0]), squeeze(parts[1]))
        guard text.count > prefix.count + suffix.count, text.hasPrefix(prefix), text.hasSuffix(suffix) else {
            return nil
        }
        let inner = text.dropFirst(prefix.count).dropLast(suffix.count)
        return inner.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } ? String(inner) : nil
    }

    /// Removes the bridge locals that nothing reads any more.
    mutating func removeUnusedBridgeLocals() {
        for local in bridgeLocals {
            if let removal = local.removalIfUnread {
                edits.add(removal, in: local.file)
            }
        }
    }

}
#endif
