#if Txkit
import Foundation
import SwiftSyntax

/// Moves the legacy data access of one ``TransactionScope`` into
/// requirements of the consumer's `Database` shim, and says how the
/// consumer calls them instead.
///
/// Each use of the legacy transaction, and each name only GRDB declares,
/// goes into the smallest piece of code that can leave the consumer on its
/// own: first the expression around it (`Account.exists(db, key: id)`),
/// whose free variables become parameters and whose value the result; if
/// its type or its variables' types cannot be read from the source, or it
/// yields a GRDB value (`[Row]`), the statement around it, then the
/// statements after it up to the last use of what it declares, then the
/// enclosing statement, up to the whole body. A use the consumer passes
/// to a finder it holds (a pair's shim), or to one of its own methods
/// that the migration makes take a TransactionKit transaction, just gets
/// the new transaction.
final class LegacyCodeExtractor {
    let context: MigrationContext
    let scope: TransactionScope
    /// The consumer's file edits, in that file's UTF-8 offsets.
    private(set) var edits: [TextEdit] = []
    private(set) var refusals: [Refusal] = []
    /// Calls through a pair's shim whose legacy member did not throw: the
    /// shim's does (its bridge can), so they need `try`.
    var throwingCalls: [FunctionCallExprSyntax] = []
    /// Code replaced by a requirement's call that now needs `try` (the
    /// requirement throws, its bridge can) where the code it replaces did
    /// not: the function or closure around it has to throw.
    private(set) var newlyTried: [Syntax] = []

    /// A piece of the scope the extractor handles as one.
    enum Unit {
        /// A use passed on as the TransactionKit transaction.
        case transaction(ExprSyntax, dropLabel: LabeledExprSyntax?)
        /// A member of the legacy transaction that TransactionKit's has under
        /// another name (`transaction.addCompletion` → `tx.addSyncCompletion`).
        case renamed(MemberAccessExprSyntax, String)
        /// An expression moved into a requirement.
        case expression(ExprSyntax, InlineRequirement, assignsBack: String?)
        /// A call of a member the sources declare, through a requirement
        /// that takes the member's parameters: the call's new text.
        case memberCall(FunctionCallExprSyntax, replacement: String, assignsBack: String?)
        /// Consecutive statements of a block moved into a requirement.
        case statements(CodeBlockItemListSyntax, Range<Int>, InlineRequirement, outputs: [Output], returns: Bool)

        var range: Range<AbsolutePosition> {
            switch self {
            case let .transaction(expression, label):
                (label.map { Syntax($0) } ?? Syntax(expression)).positionAfterSkippingLeadingTrivia
                    ..< expression.endPositionBeforeTrailingTrivia
            case let .renamed(member, _):
                member.positionAfterSkippingLeadingTrivia ..< member.endPositionBeforeTrailingTrivia
            case let .expression(expression, _, _):
                expression.positionAfterSkippingLeadingTrivia ..< expression.endPositionBeforeTrailingTrivia
            case let .memberCall(call, _, _):
                call.positionAfterSkippingLeadingTrivia ..< call.endPositionBeforeTrailingTrivia
            case let .statements(list, range, _, _, _):
                Array(list)[range.lowerBound].positionAfterSkippingLeadingTrivia
                    ..< Array(list)[range.upperBound - 1].endPositionBeforeTrailingTrivia
            }
        }
    }

    /// A value a moved run of statements leaves to the code after it.
    struct Output {
        var name: String
        var type: String
        /// Declared inside the run (`let`/`var`), not a variable it changes.
        var isDeclaration: Bool
        var isVariable: Bool
    }

    init(context: MigrationContext, scope: TransactionScope) {
        self.context = context
        self.scope = scope
    }

    /// Finds the scope's legacy data access and plans its edits.
    func extract() {
        var units: [Unit] = []
        func isCovered(_ node: some SyntaxProtocol) -> Bool {
            let position = node.positionAfterSkippingLeadingTrivia
            return units.contains { $0.range.contains(position) }
        }
        for occurrence in occurrences() {
            if isCovered(occurrence) { continue }
            guard let unit = unit(for: occurrence) else { return }
            let range = unit.range
            units.removeAll { range.lowerBound <= $0.range.lowerBound && $0.range.upperBound <= range.upperBound }
            units.append(unit)
        }
        for unit in units {
            edits += edits(for: unit)
            if let node = newlyTriedNode(of: unit) { newlyTried.append(node) }
        }
    }

    // MARK: Occurrences

    /// The uses of the legacy transaction, and the names only GRDB declares,
    /// in source order.
    private func occurrences() -> [Syntax] {
        var found: [Syntax] = []
        for reference in scope.body.descendants(DeclReferenceExprSyntax.self) where !FreeVariables.isMemberName(reference) {
            let name = reference.baseName.text
            if name == scope.legacyName {
                if LocalScope.declarations(visibleAt: reference)[name]?.node.id == scope.legacyDeclaration?.id {
                    found.append(Syntax(reference))
                }
            } else if isGRDBName(name, at: Syntax(reference)) {
                found.append(Syntax(reference))
            }
        }
        for type in scope.body.descendants(IdentifierTypeSyntax.self) where isGRDBName(type.name.text, at: Syntax(type)) {
            found.append(Syntax(type))
        }
        found.removeAll { node in scope.bridges.contains { LocalDeclaration.isInside(node, $0) } }
        found += scope.bridges.map { Syntax($0) }
        // The transaction's uses first: the expressions around them hold
        // most GRDB names (`Note.filter(Column("title") == t).fetchOne(db)`).
        let isUse = { (node: Syntax) in self.use(node) != nil }
        return found.sorted { (isUse($0) ? 0 : 1, $0.position) < (isUse($1) ? 0 : 1, $1.position) }
    }

    /// `node` as a use of the legacy transaction: its name, or a bridge
    /// written where it is used.
    private func use(_ node: Syntax) -> ExprSyntax? {
        if let reference = node.as(DeclReferenceExprSyntax.self), reference.baseName.text == scope.legacyName {
            return ExprSyntax(reference)
        }
        return scope.bridges.first { $0.id == node.id }
    }

    private func isGRDBName(_ name: String, at node: Syntax) -> Bool {
        guard GRDBVocabulary.typeNames.contains(name) || GRDBVocabulary.functionNames.contains(name) else { return false }
        if context.index.types[name] != nil { return false }
        if LocalScope.declarations(visibleAt: node)[name] != nil { return false }
        if GRDBVocabulary.functionNames.contains(name) {
            // `sum(…)` of GRDB, not a method or property of the consumer.
            return context.consumer.allMembers.allSatisfy { $0.name != name }
                && node.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == node.id
        }
        return true
    }

    // MARK: Units

    private func unit(for occurrence: Syntax) -> Unit? {
        if let reference = use(occurrence) {
            if let passed = transactionArgument(reference) { return passed }
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.base?.id == reference.id,
               let renamed = renamedMembers[member.declName.baseName.text] {
                return .renamed(member, renamed)
            }
            if let expression = legacyExpression(around: reference) {
                if let call = expression.as(FunctionCallExprSyntax.self), let (_, replacement, assignsBack) = memberCall(call) {
                    return .memberCall(call, replacement: replacement, assignsBack: assignsBack)
                }
                if let unit = expressionUnit(expression) { return unit }
            }
        }
        guard let item = occurrence.ancestor(CodeBlockItemSyntax.self, below: scope.owner),
              let list = item.parent?.as(CodeBlockItemListSyntax.self),
              let position = Array(list).firstIndex(where: { $0.id == item.id })
        else {
            refuse(occurrence, "its use of the legacy transaction is not inside a statement of the block")
            return nil
        }
        return statementUnit(list, position ..< position + 1, occurrence: occurrence)
    }

    /// The call around a use of the legacy transaction: the innermost call
    /// that takes it as an argument (`Account.fetchOne(db, key: id)`), or the
    /// member it is the base of (`db.changesCount`, `db.execute(sql:)`).
    private func legacyExpression(around reference: ExprSyntax) -> ExprSyntax? {
        var node = Syntax(reference)
        // `transaction.database`: the legacy transaction's own connection.
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.base?.id == node.id {
            if let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id {
                return ExprSyntax(call)
            }
            if member.parent?.is(LabeledExprSyntax.self) == true {
                node = Syntax(member)
            } else {
                return ExprSyntax(member)
            }
        }
        guard let argument = node.parent?.as(LabeledExprSyntax.self),
              let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        else { return nil }
        return ExprSyntax(call)
    }

    private func expressionUnit(_ expression: ExprSyntax) -> Unit? {
        let free = FreeVariables(
            of: [Syntax(expression)], in: scope.owner, legacyName: scope.legacyName,
            legacyDeclaration: scope.legacyDeclaration, consumer: context.consumer, allowsReturn: false,
            excluding: scope.bridges.map { Syntax($0) })
        guard free.obstacle == nil else { return nil }
        var parameters: [InlineRequirement.Parameter] = []
        var assignsBack: String?
        var written: InlineRequirement.Parameter?
        for input in free.inputs {
            guard let type = inputType(input), !context.isLegacyType(type) else { return nil }
            let parameter = InlineRequirement.Parameter(name: input.name, type: type)
            parameters.append(parameter)
            if isWritten(input, type: type) {
                guard written == nil, !input.isConsumerProperty else { return nil }
                written = parameter
            }
        }
        guard let (callbacks, callbackEdits) = callbackParameters(free.callbacks, taken: Set(parameters.map(\.name))) else {
            return nil
        }
        parameters += callbacks
        let statement = statementExpression(of: expression)
        let valueIsUsed = !(statement != nil && !isImplicitReturn(statement!))
        var resultType = "Void"
        if valueIsUsed {
            guard let type = context.typer.type(of: expression), !context.isLegacyType(type), type != "Void" else {
                return nil
            }
            resultType = type
        }
        var body: [String] = []
        let code = movedText([Syntax(expression)], extra: callbackEdits)
        // The `await` before the expression stays in the consumer; the
        // wrapper needs its own.
        let awaited = isAwaited(expression) ? "await " : ""
        if let written {
            guard statement != nil, !valueIsUsed else { return nil }
            assignsBack = written.name
            body = ["var \(written.name) = \(written.name)"] + prefixed(code, "try \(awaited)") + ["return \(written.name)"]
            resultType = written.type
        } else if valueIsUsed {
            body = prefixed(code, expression.is(FunctionCallExprSyntax.self) ? "return try \(awaited)" : "return \(awaited)")
        } else {
            body = prefixed(code, expression.is(FunctionCallExprSyntax.self) ? "_ = try \(awaited)" : "_ = \(awaited)")
        }
        var requirement = InlineRequirement(
            name: name(forExpression: expression), parameters: parameters, resultType: resultType,
            kind: callbacks.contains(where: { $0.type.contains("DBWriteTransaction") }) ? .write : kind(of: Syntax(expression)),
            body: body, legacyName: scope.legacyName, legacyType: scope.legacyType,
            summary: summary(of: Syntax(expression)))
        requirement.isAsync = isAwaited(expression) || awaits([Syntax(expression)])
        return .expression(expression, context.add(requirement, method: scope.methodName), assignsBack: assignsBack)
    }

    /// A run of statements moved whole, grown forward to the last use of
    /// what it declares, then to the enclosing statement, up to the body.
    private func statementUnit(_ list: CodeBlockItemListSyntax, _ range: Range<Int>, occurrence: Syntax) -> Unit? {
        var list = list
        var range = range
        while true {
            let items = Array(list)
            for end in range.upperBound ... items.count {
                if let unit = statementsUnit(list, range.lowerBound ..< end) { return unit }
            }
            if list.id == scope.body.id {
                if range != 0 ..< items.count, let unit = statementsUnit(list, 0 ..< items.count) { return unit }
                let (reason, fix) = refusalReason(list, range)
                refuse(occurrence, reason, fix: fix)
                return nil
            }
            guard let item = list.parent?.ancestorOrSelf(CodeBlockItemSyntax.self, below: scope.owner),
                  let parent = item.parent?.as(CodeBlockItemListSyntax.self),
                  let position = Array(parent).firstIndex(where: { $0.id == item.id })
            else {
                refuse(occurrence, "txkit cannot tell which statement holds it")
                return nil
            }
            list = parent
            range = position ..< position + 1
        }
    }

    private func statementsUnit(_ list: CodeBlockItemListSyntax, _ range: Range<Int>) -> Unit? {
        let items = Array(list)[range]
        if let binding = scope.bridgeBinding, items.contains(where: { $0.id == binding.id }) { return nil }
        let nodes = items.map { Syntax($0) }
        let endsBody = list.id == scope.body.id && range.upperBound == list.count
        let returns = endsBody && (scope.returnsSingleExpression || items.contains { FreeVariables.exit(in: Syntax($0)) != nil })
        let free = FreeVariables(
            of: nodes, in: scope.owner, legacyName: scope.legacyName, legacyDeclaration: scope.legacyDeclaration,
            consumer: context.consumer, allowsReturn: endsBody, excluding: scope.bridges.map { Syntax($0) })
        guard free.obstacle == nil else { return nil }
        var parameters: [InlineRequirement.Parameter] = []
        var outputs: [Output] = []
        for input in free.inputs {
            guard let type = inputType(input), !context.isLegacyType(type) else { return nil }
            parameters.append(InlineRequirement.Parameter(name: input.name, type: type))
            if isWritten(input, type: type) {
                guard !input.isConsumerProperty, input.declaration?.isVariable == true else { return nil }
                outputs.append(Output(name: input.name, type: type, isDeclaration: false, isVariable: true))
            }
        }
        for declaration in free.outputs {
            guard let type = context.typer.type(of: declaration), !context.isLegacyType(type) else { return nil }
            outputs.append(Output(name: declaration.name, type: type, isDeclaration: true, isVariable: declaration.isVariable))
        }
        guard let (callbacks, callbackEdits) = callbackParameters(free.callbacks, taken: Set(parameters.map(\.name))) else {
            return nil
        }
        parameters += callbacks
        var resultType = "Void"
        if returns {
            guard outputs.isEmpty, let type = scope.resultType, !context.isLegacyType(type) else { return nil }
            resultType = type
        } else if outputs.count == 1 {
            resultType = outputs[0].type
        } else if outputs.count > 1 {
            resultType = "(" + outputs.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
        }
        var body = outputs.filter { !$0.isDeclaration }.map { "var \($0.name) = \($0.name)" }
        var code = movedText(nodes, extra: callbackEdits)
        if returns, scope.returnsSingleExpression, resultType != "Void" {
            code = prefixed(code, "return ")
        }
        body += code
        switch outputs.count {
        case 0: break
        case 1: body.append("return \(outputs[0].name)")
        default: body.append("return (" + outputs.map { "\($0.name): \($0.name)" }.joined(separator: ", ") + ")")
        }
        let whole = endsBody && range.lowerBound == 0
        var requirement = InlineRequirement(
            name: whole ? scope.methodName : name(forStatements: nodes), parameters: parameters, resultType: resultType,
            kind: callbacks.contains(where: { $0.type.contains("DBWriteTransaction") }) ? .write : kind(of: nodes), body: body, legacyName: scope.legacyName, legacyType: scope.legacyType,
            summary: summary(of: nodes[0]))
        requirement.isAsync = awaits(nodes)
        let added = context.add(requirement, method: scope.methodName)
        return .statements(list, range, added, outputs: outputs, returns: returns)
    }

    /// Why the statements `range` of `list` cannot move into a shim, and
    /// the fix when it is not the usual one.
    private func refusalReason(_ list: CodeBlockItemListSyntax, _ range: Range<Int>) -> (String, fix: String?) {
        let nodes = Array(list)[range].map { Syntax($0) }
        // A finder the consumer holds whose pair cannot be shimmed: its
        // shim's reason, not a guess about the code around the call.
        let names = Set(nodes.flatMap { $0.descendants(DeclReferenceExprSyntax.self) }.map(\.baseName.text))
        if let property = names.sorted().first(where: { context.unshimmableFinders[$0] != nil }),
           let refusal = context.unshimmableFinders[property] {
            return ("the code uses `\(property)`, whose shim txkit cannot write: \(refusal.reason)", refusal.fix)
        }
        return (refusalText(nodes), nil)
    }

    private func refusalText(_ nodes: [Syntax]) -> String {
        let free = FreeVariables(
            of: nodes, in: scope.owner, legacyName: scope.legacyName, legacyDeclaration: scope.legacyDeclaration,
            consumer: context.consumer, allowsReturn: true, excluding: scope.bridges.map { Syntax($0) })
        if let obstacle = free.obstacle { return "the code that uses the legacy transaction cannot move into a shim: " + obstacle }
        for input in free.inputs {
            guard let type = inputType(input) else {
                return "txkit cannot tell the type of `\(input.name)`, which the legacy code reads"
            }
            if context.isLegacyType(type) { return "the legacy code reads `\(input.name)`, a \(type)" }
        }
        for output in free.outputs {
            guard let type = context.typer.type(of: output) else {
                return "txkit cannot tell the type of `\(output.name)`, which the legacy code leaves to the code after it"
            }
            if context.isLegacyType(type) { return "`\(output.name)` is a \(type), which code outside the transaction reads" }
        }
        guard let resultType = scope.resultType else { return "txkit cannot tell what the block returns" }
        if context.isLegacyType(resultType) { return "the block returns a \(resultType) only GRDB declares" }
        return "txkit cannot move the code that uses the legacy transaction into a shim requirement"
    }

    /// Members of the legacy transaction that TransactionKit's has: those
    /// `txkit.json` renames, and GRDB's `inSavepoint`, whose block TransactionKit
    /// takes as written (it returns `.commit` or `.rollback` there too).
    private var renamedMembers: [String: String] {
        var renamed = context.legacyTransaction(scope.legacyType)?.renamedMembers ?? [:]
        if ["Database", "GRDB.Database"].contains(scope.legacyType), scope.kind == .write {
            renamed["inSavepoint"] = renamed["inSavepoint"] ?? "inSavepoint"
        }
        return renamed
    }

    private func refuse(_ node: some SyntaxProtocol, _ reason: String, fix: String? = nil) {
        refusals.append(Refusal(.cannotMigrate, at: scope.file.sourceLocation(of: node),
            "\(context.consumer.name).\(scope.methodName): \(reason)",
            fix: fix ?? "move that code into a finder method that takes the transaction, or give the names it uses their types, then run migrate again"))
    }
}
#endif
