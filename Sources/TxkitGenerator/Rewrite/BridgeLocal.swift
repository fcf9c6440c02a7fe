#if Txkit
import SwiftSyntax

/// A local that holds what a rewrite replaces where the local is read:
/// a legacy transaction built with a bridge (`let legacy =
/// LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))`), or a singleton of
/// the legacy type. Once every read is replaced, the local goes.
struct BridgeLocal {
    var name: String
    var item: CodeBlockItemSyntax
    var list: CodeBlockItemListSyntax
    var file: SourceFile
    /// The offsets of the references the rewrite replaced.
    var replaced: Set<Int> = []

    /// The `let name = …` declared before `node` in a block around it
    /// (see ``SwiftSyntax/SyntaxProtocol/localDeclaration(named:)``).
    init?(named name: String, before node: some SyntaxProtocol, file: SourceFile) {
        guard let (item, list) = node.localDeclaration(named: name) else { return nil }
        self.name = name
        self.item = item
        self.list = list
        self.file = file
    }

    /// Notes that the rewrite replaced `reference` to `local`, adding
    /// `local` to `locals` the first time.
    static func record(_ reference: DeclReferenceExprSyntax, to local: BridgeLocal, in locals: inout [BridgeLocal]) {
        let offset = reference.position.utf8Offset
        if let index = locals.firstIndex(where: { $0.item.id == local.item.id }) {
            locals[index].replaced.insert(offset)
        } else {
            var local = local
            local.replaced.insert(offset)
            locals.append(local)
        }
    }

    /// Removes the declarations of `locals` that nothing reads any more.
    static func removeUnread(_ locals: [BridgeLocal], edits: inout EditBuffer) {
        for local in locals {
            if let removal = local.removalIfUnread {
                edits.add(removal, in: local.file)
            }
        }
    }

    /// The edit that deletes the declaration, when nothing after it
    /// reads the local but the references the rewrite replaced.
    var removalIfUnread: TextEdit? {
        let counter = ReferenceCounter(name: name)
        for later in list where later.position > item.position {
            counter.walk(later)
        }
        guard counter.positions.subtracting(replaced).isEmpty else { return nil }
        return TextEdit(
            start: item.position.utf8Offset, end: item.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "")
    }
}
#endif
