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
            refuse(unreadable.node, in: file, "\(context.consumer.name).\(enclosingMemberName(call)): \(unreadable.reason)",
                   fix: "bridge the transaction once, to one legacy transaction type, then run migrate again")
        case let .success(code)?:
            bridgedBlocks.append(TransactionBlock(
                call: call, closure: closure, receiver: receiver, receiverType: receiverType, kind: kind, style: .bridged(code),
                isAwaited: isAwaited(call), legacyName: transaction, legacyParameter: parameter?.node, legacyType: code.legacyType,
                file: file))
        }
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
#endif
