#if Txkit
import SwiftSyntax

/// The blocks a consumer opens on its database, and the methods that
/// receive a legacy transaction: found, then moved onto `db.read` /
/// `db.write` and TransactionKit transactions.
extension ConsumerMigration {
    /// Every call in the consumer's code that runs a closure in a legacy
    /// transaction on a GRDB handle or an app holder.
    mutating func findBlocks() {
        var holders: [String: DatabaseHolder?] = [:]
        for declaration in context.consumer.declarations where declaration.file.generatedBy == nil {
            for call in declaration.memberBlock.descendants(FunctionCallExprSyntax.self) {
                guard !isInNestedType(call, below: declaration.memberBlock),
                      let member = call.calledExpression.as(MemberAccessExprSyntax.self), let receiver = member.base,
                      call.trailingClosure != nil || call.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) })
                else { continue }
                let closure = closureArgument(of: call)
                let method = member.declName.baseName.text
                guard let receiverType = context.typer.type(of: receiver) else { continue }
                let core = SourceIndex.coreTypeName(receiverType)
                let file = declaration.file
                if context.index.types[core] == nil, let kind = Self.transactionKitBlockKinds[core]?[method] {
                    guard let closure else { continue }
                    addBridged(call: call, closure: closure, receiver: receiver, receiverType: receiverType, kind: kind, file: file)
                    continue
                }
                if let canWrite = GRDBVocabulary.handleTypes[core] {
                    guard let closure else { continue }
                    if method == "writeWithoutTransaction" || method == "barrierWriteWithoutTransaction" {
                        refuse(call, in: file, "\(context.consumer.name) runs code outside a transaction (`\(core).\(method)`)",
                               fix: "open the transaction inside it with `inTransaction` or `write`, or keep that method on GRDB")
                        continue
                    }
                    guard let writes = GRDBVocabulary.blockMethods[method] else { continue }
                    guard canWrite || !writes else { continue }
                    add(TransactionBlock(
                        call: call, closure: closure, receiver: receiver, receiverType: receiverType,
                        kind: writes ? .write : .read, style: method == "inTransaction" ? .inTransaction : .plain,
                        isAwaited: isAwaited(call), legacyName: "", legacyParameter: nil, legacyType: "Database", file: file))
                    continue
                }
                if holders[core] == nil {
                    holders[core] = context.index.types[core].flatMap { DatabaseHolder($0, context: context) }
                }
                // The holder's block among its closures (`asyncWrite(block: { … }, completion: { … })`).
                guard let holder = holders[core] ?? nil, let holderMethod = holder.methods[method],
                      let closure = closure ?? closureArgument(of: call, labeled: holderMethod.closureLabel)
                else { continue }
                add(TransactionBlock(
                    call: call, closure: closure, receiver: receiver, receiverType: receiverType, kind: holderMethod.kind,
                    style: holderMethod.hasOtherParameters ? .holderCall(holderMethod) : .plain, isAwaited: isAwaited(call),
                    legacyName: "", legacyParameter: nil, legacyType: holderMethod.legacyType, file: file))
            }
        }
    }

    private mutating func add(_ block: TransactionBlock) {
        var block = block
        guard let parameter = LocalScope.closureParameters(block.closure).first else {
            refuse(block.closure, in: block.file, "the block names its transaction `$0`",
                   fix: "name the closure's parameter (`{ db in … }`), then run migrate again")
            return
        }
        block.legacyName = parameter.name
        block.legacyParameter = parameter.node
        blocks.append(block)
    }

    /// The closure a block call runs: its trailing closure, or its one
    /// closure argument.
    private func closureArgument(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        if let trailing = call.trailingClosure { return trailing }
        let closures = call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
        return closures.count == 1 ? closures[0] : nil
    }

    /// The closure argument labeled `label`.
    private func closureArgument(of call: FunctionCallExprSyntax, labeled label: String?) -> ClosureExprSyntax? {
        guard let label else { return nil }
        return call.arguments.first { $0.label?.text == label }?.expression.as(ClosureExprSyntax.self)
    }

    func isAwaited(_ call: FunctionCallExprSyntax) -> Bool {
        var node = Syntax(call)
        while let parent = node.parent {
            if parent.is(AwaitExprSyntax.self) { return true }
            guard parent.is(TryExprSyntax.self) else { return false }
            node = parent
        }
        return false
    }

    func isInNestedType(_ node: some SyntaxProtocol, below block: MemberBlockSyntax) -> Bool {
        var current = node.parent
        while let node = current, node.id != block.id {
            if node.is(ClassDeclSyntax.self) || node.is(StructDeclSyntax.self) || node.is(EnumDeclSyntax.self)
                || node.is(ActorDeclSyntax.self) {
                return true
            }
            current = node.parent
        }
        return false
    }

    // MARK: Blocks

    /// Moves a block onto `db.read`/`db.write` and its legacy data access
    /// into the shims.
    mutating func migrate(_ block: TransactionBlock) {
        let transaction = transactionName(avoiding: block.closure)
        let (resultType, single) = resultType(of: block)
        if case let .holderCall(method) = block.style {
            migrateHolderCall(block, method, transaction: transaction)
            return
        }
        let isPlain = if case .plain = block.style { true } else { false }
        let isInTransaction = if case .inTransaction = block.style { true } else { false }
        let scope = TransactionScope(
            body: block.closure.statements, owner: Syntax(block.closure), legacyName: block.legacyName,
            legacyDeclaration: block.legacyParameter, legacyType: block.legacyType, transactionName: transaction,
            kind: block.kind, resultType: isInTransaction ? "Void" : resultType,
            returnsSingleExpression: single && isPlain && resultType != "Void", methodName: enclosingMemberName(block.call),
            file: block.file)
        let function = enclosingFunction(of: block)
        if let function, namesGRDBOutside(block, in: function) {
            if migrateWholeMethod(function, block) { return }
            refuse(function.name, in: block.file,
                   "\(context.consumer.name).\(function.name.text) names GRDB around its transaction, and its code cannot move as a whole",
                   fix: "keep GRDB's types inside the block (build the SQL arguments there), then run migrate again")
            return
        }
        let failures = extract(scope, tentatively: true)
        if !failures.isEmpty {
            if let function, migrateWholeMethod(function, block) { return }
            refusals += failures
            return
        }
        // `dbQueue.write` → `db.write`; an `inTransaction` that may roll
        // back without an error → `db.writeOrRollBack`.
        if let member = block.call.calledExpression.as(MemberAccessExprSyntax.self) {
            let method = isInTransaction && rollsBack(block) ? "writeOrRollBack" : block.kind == .write ? "write" : "read"
            edit(block.file, TextEdit(
                start: member.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: member.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "\(databaseProperty).\(method)"))
        }
        // `{ db in` → `{ tx in`, keeping a capture list and a result type.
        if let clause = block.closure.signature?.parameterClause {
            edit(block.file, TextEdit(
                start: clause.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: clause.endPositionBeforeTrailingTrivia.utf8Offset, replacement: transaction))
        }
        if case .inTransaction = block.style { endInTransaction(block) }
    }

    /// The `return` statements of an `inTransaction` block (not those of
    /// closures inside it).
    private func completions(of block: TransactionBlock) -> [ReturnStmtSyntax] {
        block.closure.statements.descendants(ReturnStmtSyntax.self).filter { statement in
            statement.ancestor(ClosureExprSyntax.self, below: Syntax(block.call))?.id == block.closure.id
        }
    }

    /// Whether an `inTransaction` block returns `.rollback` anywhere.
    private func rollsBack(_ block: TransactionBlock) -> Bool {
        completions(of: block).contains { statement in
            statement.expression?.descendants(MemberAccessExprSyntax.self).contains { $0.base == nil && $0.declName.baseName.text == "rollback" } == true
        }
    }

    /// `inTransaction`'s completions: without a `.rollback`, `return .commit`
    /// goes (TransactionKit's write commits when its block returns); with
    /// one, the block is `writeOrRollBack`'s and returns its outcomes,
    /// `.commit(())` and `.rollBack(())`.
    private mutating func endInTransaction(_ block: TransactionBlock) {
        if rollsBack(block) {
            for statement in completions(of: block) {
                guard let value = statement.expression else { continue }
                let completions = value.descendants(MemberAccessExprSyntax.self).filter { member in
                    member.base == nil && ["commit", "rollback"].contains(member.declName.baseName.text)
                }
                guard !completions.isEmpty else {
                    refuse(statement, in: block.file, "the `inTransaction` block returns `\(value.trimmedDescription)`, which txkit cannot read as commit or rollback",
                           fix: "return `.commit` or `.rollback` there, then run migrate again")
                    continue
                }
                for completion in completions {
                    edit(block.file, TextEdit(
                        start: completion.positionAfterSkippingLeadingTrivia.utf8Offset,
                        end: completion.endPositionBeforeTrailingTrivia.utf8Offset,
                        replacement: completion.declName.baseName.text == "rollback" ? ".rollBack(())" : ".commit(())"))
                }
            }
            return
        }
        for statement in completions(of: block) {
            let value = statement.expression?.trimmedDescription ?? ""
            guard value.hasSuffix(".commit") else { continue }
            let isLast = block.closure.statements.last?.item.id == Syntax(statement).id
            if isLast, let item = statement.parent?.as(CodeBlockItemSyntax.self) {
                edit(block.file, TextEdit(
                    start: item.position.utf8Offset, end: item.endPositionBeforeTrailingTrivia.utf8Offset, replacement: ""))
            } else {
                edit(block.file, TextEdit(
                    start: statement.positionAfterSkippingLeadingTrivia.utf8Offset,
                    end: statement.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "return"))
            }
        }
    }

    /// `tx`, unless the code around already names something so.
    private func transactionName(avoiding node: some SyntaxProtocol) -> String {
        let names = Set(node.descendants(DeclReferenceExprSyntax.self).map(\.baseName.text))
            .union(LocalScope.declarations(visibleAt: node).keys)
        return ["tx", "transaction", "dbTransaction"].first { !names.contains($0) } ?? "migratedTransaction"
    }

    /// What a block's closure returns: its written result type, the type
    /// of the variable it initializes, the enclosing function's result when
    /// the call is returned, `Void` when its value is unused.
    func resultType(of block: TransactionBlock) -> (String?, Bool) {
        let statements = block.closure.statements
        let single = statements.count == 1 && statements.first!.item.is(ExprSyntax.self)
        if let written = block.closure.signature?.returnClause?.type.trimmedDescription { return (written, single) }
        var node = Syntax(block.call)
        while let parent = node.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
            node = parent
        }
        guard let parent = node.parent else { return (nil, single) }
        if parent.is(ReturnStmtSyntax.self) { return (enclosingResultType(block.call), single) }
        if let initializer = parent.as(InitializerClauseSyntax.self),
           let binding = initializer.parent?.as(PatternBindingSyntax.self) {
            if let written = binding.typeAnnotation?.type.trimmedDescription { return (written, single) }
            if single, let only = statements.first?.item.as(ExprSyntax.self) {
                return (context.typer.type(of: only), single)
            }
            return (nil, single)
        }
        if let item = parent.as(CodeBlockItemSyntax.self) {
            // The single expression of a function or closure body returns it.
            if let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
               let body = list.parent, body.is(CodeBlockSyntax.self) || body.is(ClosureExprSyntax.self) {
                if body.is(CodeBlockSyntax.self) { return (enclosingResultType(block.call), single) }
            }
            return ("Void", single)
        }
        return (nil, single)
    }

    /// The declared result type of the function or accessor around `node`.
    func enclosingResultType(_ node: some SyntaxProtocol) -> String? {
        var current = node.parent
        while let node = current {
            if node.is(ClosureExprSyntax.self) { return nil }
            if let function = node.as(FunctionDeclSyntax.self) {
                return function.signature.returnClause?.type.trimmedDescription ?? "Void"
            }
            if let binding = node.as(PatternBindingSyntax.self) {
                return binding.typeAnnotation?.type.trimmedDescription
            }
            current = node.parent
        }
        return nil
    }

    func enclosingMemberName(_ node: some SyntaxProtocol) -> String {
        var current = node.parent
        while let node = current {
            if let function = node.as(FunctionDeclSyntax.self) { return function.name.text }
            if node.is(InitializerDeclSyntax.self) { return "initialize" }
            if let binding = node.as(PatternBindingSyntax.self),
               binding.parent?.parent?.parent?.is(MemberBlockItemSyntax.self) == true,
               let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                return name
            }
            current = node.parent
        }
        return "code"
    }

    // MARK: Methods that receive a legacy transaction

    /// Each method that takes a legacy transaction takes the TransactionKit
    /// one instead; its legacy data access moves into the shims.
    mutating func migrateMethods() {
        for function in consumerFunctions() {
            guard let position = context.migratedMethods.first(where: { $0.function == function.id })?.position,
                  let body = function.body,
                  let file = context.consumer.declarations.first(where: { $0.memberBlock.descendants(FunctionDeclSyntax.self).contains { $0.id == function.id } })?.file
            else { continue }
            let parameter = Array(function.signature.parameterClause.parameters)[position]
            let legacyType = SourceIndex.coreTypeName(parameter.type.trimmedDescription)
            let kind = context.migratedMethods.first(where: { $0.function == function.id })?.kind ?? .write
            let name = (parameter.secondName ?? parameter.firstName).text
            let single = body.statements.count == 1 && body.statements.first!.item.is(ExprSyntax.self)
            extract(TransactionScope(
                body: body.statements, owner: Syntax(function), legacyName: name, legacyDeclaration: Syntax(parameter),
                legacyType: legacyType, transactionName: name, kind: kind,
                resultType: function.signature.returnClause?.type.trimmedDescription ?? "Void",
                returnsSingleExpression: single && function.signature.returnClause != nil, methodName: function.name.text,
                file: file))
            edit(file, TextEdit(
                start: parameter.type.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: parameter.type.endPositionBeforeTrailingTrivia.utf8Offset, replacement: kind.typeName))
            legacyEntryPoints.append(LegacyEntryPoint(function: function, position: position, kind: kind, legacyType: legacyType, file: file))
        }
    }

    /// Read or write for a received legacy transaction `name` of `type`:
    /// its configured kind, else what its type says (`…Write…`), else what
    /// the body does with it (a GRDB method that writes, or a member with
    /// a writing verb that it is passed to; `names.append($0)` writes no
    /// database).
    func transactionKind(forParameter type: String, named name: String, body: CodeBlockSyntax) -> TransactionKind {
        switch context.legacyTransaction(type)?.transaction {
        case .read?: return .read
        case .write?: return .write
        default: break
        }
        if type.contains("Write") { return .write }
        if type.contains("Read") { return .read }
        for call in body.descendants(FunctionCallExprSyntax.self) {
            let called = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""
            if GRDBVocabulary.writingMethods.contains(called) { return .write }
            let passesTransaction = call.arguments.contains { $0.expression.trimmedDescription == name }
            if passesTransaction && ShimPlan.writingVerbs.contains(where: { called.hasPrefix($0) }) { return .write }
        }
        return .read
    }
}

/// A consumer method that took a legacy transaction, kept for its callers
/// in the production file: it bridges and calls the migrated method.
struct LegacyEntryPoint {
    var function: FunctionDeclSyntax
    var position: Int
    var kind: TransactionKind
    var legacyType: String
    var file: SourceFile
}
#endif
