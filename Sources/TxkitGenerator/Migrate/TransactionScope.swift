#if Txkit
import SwiftSyntax

/// Code of a consumer that runs with a legacy transaction: the body of a
/// block it opens on its database (`dbQueue.write { db in … }`), or of a
/// method that receives the transaction from its callers.
struct TransactionScope {
    /// The statements.
    var body: CodeBlockItemListSyntax
    /// The node whose body it is (the closure, the function).
    var owner: Syntax
    /// The legacy transaction's name in the code (`db`, `transaction`).
    var legacyName: String
    /// Where that name is declared (the closure's or the function's
    /// parameter), to tell it from a shadowing one.
    var legacyDeclaration: Syntax?
    /// Its type (`Database`, `WriteTx`).
    var legacyType: String
    /// The name the migrated code gives the TransactionKit transaction.
    var transactionName: String
    var kind: TransactionKind
    /// The type the body returns, when the source says (`nil`: unknown).
    var resultType: String?
    /// Whether the body is a single expression whose value is returned.
    var returnsSingleExpression: Bool
    /// The consumer method the code is in, for naming what is extracted.
    var methodName: String
    var file: SourceFile
    /// Bridges written inline (`finder.count(try SQLiteDB.shimOnlyBridge(tx))`):
    /// each is a use of the legacy transaction, as `legacyName` would be.
    var bridges: [ExprSyntax] = []
    /// The block is an escaping closure (a holder's `asyncWrite(block:)`):
    /// it names the consumer's members with `self.`.
    var escapes = false
    /// The statement that binds the legacy transaction from a bridge (`let
    /// db = try SQLiteDB.shimOnlyBridge(tx)`): no moved code holds it.
    var bridgeBinding: CodeBlockItemSyntax? = nil
}
#endif
