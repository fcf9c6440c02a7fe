#if Txkit
import SwiftSyntax

/// A consumer that holds `any DB` but bridges inside its blocks
/// (`db.read { tx in let db = try SQLiteDB.shimOnlyBridge(tx); … }`) is
/// bridged, not migrated: its blocks stay, and what its code does with the
/// bridged transaction moves onto its shims, as in a block on a GRDB pool.
extension ConsumerMigration {
    /// TransactionKit's database types (not declared by the sources), and
    /// their methods that run a block in a transaction: whether it writes.
    static let transactionKitBlockKinds: [String: [String: TransactionKind]] = {
        let methods: [String: TransactionKind] = ["read": .read, "write": .write, "writeOrRollBack": .write]
        return ["DB": methods, "AsyncDB": methods, "SQLiteDB": methods]
    }()

    /// Records `call`, a block on a TransactionKit database, when its code
    /// bridges the block's transaction to a legacy one.
    mutating func addBridged(
        call: FunctionCallExprSyntax, closure: ClosureExprSyntax, receiver: ExprSyntax, receiverType: String,
        kind: TransactionKind, file: SourceFile
    ) {
        let parameter = LocalScope.closureParameters(closure).first
        let transaction = parameter?.name ?? "$0"
        let members = Set(context.consumer.allMembers.map(\.name))
        switch BridgedCode.find(in: closure, transaction: transaction, configuration: context.configuration, avoiding: members) {
        case nil:
            return
        case let .failure(unreadable)?:
            refuse(unreadable, in: file, member: enclosingMemberName(call))
        case let .success(code)?:
            bridgedBlocks.append(TransactionBlock(
                call: call, closure: closure, receiver: receiver, receiverType: receiverType, kind: kind, style: .bridged(code),
                isAwaited: isAwaited(call), legacyName: transaction, legacyParameter: parameter?.node, legacyType: code.legacyType,
                file: file))
        }
    }

    private mutating func refuse(_ unreadable: BridgedCode.Unreadable, in file: SourceFile, member: String) {
        refuse(unreadable.node, in: file, "\(context.consumer.name).\(member): \(unreadable.reason)",
               fix: "bridge the transaction once, to one legacy transaction type, then run migrate again")
    }

    /// The consumer's methods that receive a TransactionKit transaction
    /// and bridge it back to a legacy one (`func count(tx: DBReadTransaction)
    /// { let db = try SQLiteDB.shimOnlyBridge(tx); … }`): bridged, not
    /// migrated, and a `MockDB` transaction would reach the bridge.
    mutating func findBridgedMethods() {
        let members = Set(context.consumer.allMembers.map(\.name))
        for function in consumerFunctions() {
            guard let body = function.body,
                  let parameter = function.signature.parameterClause.parameters.first(where: {
                      ["DBReadTransaction", "DBWriteTransaction"].contains(SourceIndex.coreTypeName($0.type.trimmedDescription))
                  }),
                  let file = context.consumer.declarations.first(where: { declaration in
                      declaration.memberBlock.members.contains { $0.decl.id == DeclSyntax(function).id }
                  })?.file
            else { continue }
            let transaction = (parameter.secondName ?? parameter.firstName).text
            switch BridgedCode.find(in: body.statements, transaction: transaction, configuration: context.configuration, avoiding: members) {
            case nil:
                continue
            case let .failure(unreadable)?:
                refuse(unreadable, in: file, member: function.name.text)
            case let .success(code)?:
                let kind: TransactionKind = SourceIndex.coreTypeName(parameter.type.trimmedDescription) == "DBWriteTransaction" ? .write : .read
                bridgedMethods.append(BridgedMethod(function: function, transaction: transaction, kind: kind, code: code, file: file))
            }
        }
    }

    /// Moves what a bridged method's code does with the legacy transaction
    /// onto the shims; the method keeps its signature, and its bridge goes.
    mutating func migrateBridged(_ method: BridgedMethod) {
        guard let body = method.function.body else { return }
        let single = body.statements.count == 1 && body.statements.first!.item.is(ExprSyntax.self)
        let scope = TransactionScope(
            body: body.statements, owner: Syntax(method.function), legacyName: method.code.legacyName,
            legacyDeclaration: method.code.legacyDeclaration, legacyType: method.code.legacyType, transactionName: method.transaction,
            kind: method.kind, resultType: method.function.signature.returnClause?.type.trimmedDescription ?? "Void",
            returnsSingleExpression: single && method.function.signature.returnClause != nil, methodName: method.function.name.text,
            file: method.file, bridges: method.code.inline, bridgeBinding: method.code.binding)
        guard extract(scope).isEmpty, let binding = method.code.binding else { return }
        edit(method.file, TextEdit(
            start: binding.position.utf8Offset, end: binding.endPositionBeforeTrailingTrivia.utf8Offset, replacement: ""))
    }

    /// Moves what a bridged block's code does with the legacy transaction
    /// onto the shims; the block, on the consumer's TransactionKit
    /// database, stays, and its bridge goes.
    mutating func migrateBridged(_ block: TransactionBlock) {
        guard case let .bridged(code) = block.style else { return }
        let (resultType, single) = resultType(of: block)
        let scope = TransactionScope(
            body: block.closure.statements, owner: Syntax(block.closure), legacyName: code.legacyName,
            legacyDeclaration: code.legacyDeclaration, legacyType: code.legacyType, transactionName: block.legacyName,
            kind: block.kind, resultType: resultType, returnsSingleExpression: single && resultType != "Void",
            methodName: enclosingMemberName(block.call), file: block.file, bridges: code.inline, bridgeBinding: code.binding)
        guard extract(scope).isEmpty, let binding = code.binding else { return }
        edit(block.file, TextEdit(
            start: binding.position.utf8Offset, end: binding.endPositionBeforeTrailingTrivia.utf8Offset, replacement: ""))
    }
}
/// A consumer method that receives a TransactionKit transaction and
/// bridges it (see ``ConsumerMigration/findBridgedMethods()``).
struct BridgedMethod {
    var function: FunctionDeclSyntax
    /// The name of its TransactionKit transaction parameter.
    var transaction: String
    var kind: TransactionKind
    var code: BridgedCode
    var file: SourceFile
}
#endif
