#if Txkit
import SwiftSyntax

/// Each use routed through the shim property: its call, its transaction
/// argument, the bridge locals that become unused.
extension ConsumerRewriter {
    mutating func route(_ use: ConsumerUse, through property: String) throws {
        if Self.isInStaticMember(Syntax(use.node)) {
            throw GeneratorError.cannotApply(
                "\(use.text) is in a static member of \(consumerName), which has no instance to hold "
                    + "\(shimType); move it to an instance member or edit it by hand",
                location: use.location)
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
            throw GeneratorError.cannotApply(
                "\(use.text) returns a \(legacyName) (a singleton or a factory): through the shim it would still "
                    + "hand out the legacy type, whose calls keep their legacy transactions; call those members "
                    + "on a stored property of \(consumerName) instead, or edit this use by hand",
                location: use.location)
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
            throw GeneratorError.cannotApply(
                "\(use.text) passes its \(parameter.type) in a trailing closure or not at all",
                location: use.location)
        }
        let argument = arguments[position]
        let transaction = try transactionExpression(
            argument.expression, type: parameter.type, kind: shimMember.transactions[index] ?? .read,
            use: use)
        if shimMember.transactions[index] == .write, use.context == .read {
            throw GeneratorError.cannotApply(
                "\(use.text) runs in a read transaction, but \(legacyName).\(member.displayName) writes "
                    + "(\(shimMember.decision.map { "\($0.reason), rule: \($0.rule.rawValue)" } ?? "configured")); "
                    + "its shim takes a DBWriteTransaction: call it inside a write transaction, or list it in "
                    + "readMembers of txkit.json if it only reads",
                location: use.location)
        }
        edits.add(TextEdit(
            start: argument.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: argument.expression.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: transaction), in: use.file)

        // The shim throws where the legacy member may not have.
        if shimMember.shimThrowsClause == "throws", member.throwsClause == nil || member.throwsClause == "rethrows",
           !Self.isCoveredByTry(Syntax(call)) {
            // In a closure, `try` would make the closure throw, and the call
            // it is passed to (`compactMap`) would need a `try` of its own,
            // or fail to compile against an explicit non-throwing signature.
            var around = Syntax(call)
            if Self.isInNonThrowingClosure(around),
               let closure = Self.innermostClosure(around: around),
               let rethrowing = Self.rethrowingCall(passing: closure) {
                // `ids.compactMap { id in … }`: the closure throws and the
                // call it is passed to is tried (ConsumerRewriter+RethrowingClosure).
                makeThrow(closure, passedTo: rethrowing, in: use.file)
                around = Syntax(rethrowing)
            }
            if Self.isInNonThrowingClosure(around) {
                throw GeneratorError.cannotApply(
                    "\(use.text) is in a closure, and its shim throws where \(legacyName).\(member.displayName) "
                        + "does not: the closure would have to throw; move the call out of the closure (or mark "
                        + "it `try` and let the closure throw), then run again",
                    location: use.location)
            }
            // The method around it then throws too, and its callers `try`
            // (see ConsumerRewriter+Throws).
            if Self.isInNonThrowingFunction(around) {
                try requireThrowing(around: around, for: use, legacyMember: "\(legacyName).\(member.displayName)")
            }
            edits.insertOnce("try ", at: Self.tryPosition(for: Syntax(call)), in: use.file)
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
            throw GeneratorError.cannotApply("\(type) has no bridge in txkit.json", location: use.location)
        }
        let bridges = [ownBridge] + configuration.legacyTransactions.map(\.bridge).filter { $0 != ownBridge }
        let matchAny = { (candidate: ExprSyntax) in bridges.lazy.compactMap { Self.match(candidate, bridge: $0) }.first }
        if let inner = matchAny(expression) {
            return inner
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self),
           let local = Self.local(named: reference.baseName.text, before: Syntax(expression), file: use.file),
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
                connection: name, scope: scope, before: Syntax(expression), kind: kind, location: use.location) {
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
            throw GeneratorError.cannotApply("\(use.text): \(step)", location: use.location)
        }
        throw GeneratorError.cannotApply(
            "\(use.text): its \(type) `\(expression.trimmedDescription)` is not built with a bridge of "
                + "txkit.json (\(bridges.joined(separator: " or "))) here or in a local, so --apply cannot tell "
                + "which TransactionKit transaction to pass; edit this call by hand",
            location: use.location)
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

    /// The `let name = …` declared before `node` in a block around it.
    static func local(named name: String, before node: Syntax, file: SourceFile) -> BridgeLocal? {
        var current = node
        while let parent = current.parent {
            if let list = parent.as(CodeBlockItemListSyntax.self), let item = current.as(CodeBlockItemSyntax.self) {
                for candidate in list where candidate.position < item.position {
                    guard let variable = candidate.item.as(VariableDeclSyntax.self),
                          variable.bindingSpecifier.tokenKind == .keyword(.let),
                          variable.bindings.count == 1,
                          variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                    else { continue }
                    return BridgeLocal(name: name, item: candidate, list: list, file: file, replaced: [])
                }
            }
            if parent.is(MemberBlockItemSyntax.self) { return nil }
            current = parent
        }
        return nil
    }

    /// Removes the bridge locals that nothing reads any more.
    mutating func removeUnusedBridgeLocals() {
        for local in bridgeLocals {
            if let removal = local.removalIfUnread {
                edits.add(removal, in: local.file)
            }
        }
    }

    /// Whether `node` is inside a `static` or `class` member of its type.
    static func isInStaticMember(_ node: Syntax) -> Bool {
        var current = node
        while let parent = current.parent {
            if parent.is(MemberBlockItemSyntax.self) {
                let modifiers = current.asProtocol((any WithModifiersSyntax).self)?.modifiers
                return modifiers?.contains { $0.name.text == "static" || $0.name.text == "class" } ?? false
            }
            current = parent
        }
        return false
    }

    /// Whether a `try` to the left already covers `node`.
    static func isCoveredByTry(_ node: Syntax) -> Bool {
        var current = node.parent
        while let node = current {
            if node.is(TryExprSyntax.self) { return true }
            if node.is(CodeBlockItemSyntax.self) || node.is(ClosureExprSyntax.self) || node.is(MemberBlockItemSyntax.self) {
                return false
            }
            current = node.parent
        }
        return false
    }

    /// Whether the innermost closure around `node` does not throw yet: it
    /// says no `throws` and holds no `try` (a `db.write { tx in … }` block
    /// holds some).
    static func isInNonThrowingClosure(_ node: Syntax) -> Bool {
        var current = node.parent
        while let node = current {
            if let closure = node.as(ClosureExprSyntax.self) {
                if closure.signature?.effectSpecifiers?.throwsClause != nil { return false }
                if isTransactionBlock(closure) { return false }
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

    /// Whether `closure` is the block of a transaction opened under `try`
    /// (`try dbPool.read { db in … }`, `try db.write { tx in … }`): GRDB's
    /// and TransactionKit's blocks all take throwing closures, so a `try`
    /// inside one compiles.
    /// The innermost closure around `node`, inside its function.
    static func innermostClosure(around node: Syntax) -> ClosureExprSyntax? {
        var current = node.parent
        while let candidate = current {
            if let closure = candidate.as(ClosureExprSyntax.self) { return closure }
            if candidate.is(FunctionDeclSyntax.self) || candidate.is(MemberBlockItemSyntax.self) { return nil }
            current = candidate.parent
        }
        return nil
    }

    static func isTransactionBlock(_ closure: ClosureExprSyntax) -> Bool {
        var parent = closure.parent
        if parent?.is(LabeledExprSyntax.self) == true { parent = parent?.parent?.parent }
        guard let call = parent?.as(FunctionCallExprSyntax.self),
              let callee = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return false }
        let blocks: Set<String> = [
            "read", "write", "unsafeRead", "unsafeReentrantRead", "unsafeReentrantWrite", "inDatabase",
            "inTransaction", "writeWithoutTransaction", "barrierWriteWithoutTransaction",
        ]
        return blocks.contains(callee.declName.baseName.text) && isCoveredByTry(Syntax(call))
    }

    /// Whether the function, initializer or accessor around `node` (with no
    /// closure between them) does not throw.
    static func isInNonThrowingFunction(_ node: Syntax) -> Bool {
        var current = node.parent
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

    /// Where `try` goes for a call: before it (and its `await`), or before
    /// the operator sequence it ends (`try` cannot follow a binary operator).
    static func tryPosition(for call: Syntax) -> AbsolutePosition {
        // `try` goes before `await` (`try await x()`).
        var call = call
        if let awaited = call.parent?.as(AwaitExprSyntax.self) { call = Syntax(awaited) }
        if let sequence = call.parent?.parent?.as(SequenceExprSyntax.self), call.parent?.is(ExprListSyntax.self) == true,
           sequence.elements.first?.id != call.id {
            return sequence.positionAfterSkippingLeadingTrivia
        }
        return call.positionAfterSkippingLeadingTrivia
    }
}
#endif
