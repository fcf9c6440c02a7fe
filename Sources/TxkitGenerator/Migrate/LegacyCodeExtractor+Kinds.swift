#if Txkit
import Foundation
import SwiftSyntax

/// The types of the moved code's inputs, which of them it writes, and
/// whether it reads or writes the database.
extension LegacyCodeExtractor {
    func inputType(_ input: FreeVariables.Input) -> String? {
        if input.isConsumerProperty, let finder = context.finderProperties[input.name] {
            return "any \(context.consumer.qualifiedName).Shims.\(finder.legacyType)"
        }
        if let declaration = input.declaration {
            return context.typer.type(of: declaration)
        }
        return context.typer.type(ofName: input.name, at: Syntax(scope.body))
    }

    /// Whether the code changes the variable so that the consumer must see
    /// the change: an assignment, `&x`, or a `mutating` method of a value.
    func isWritten(_ input: FreeVariables.Input, type: String) -> Bool {
        input.writes.contains { write in
            switch write {
            case .assignment, .inout:
                return true
            case let .receiver(call):
                guard input.declaration?.isVariable == true || input.isConsumerProperty else { return false }
                let method = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""
                return isMutating(method, on: type)
            }
        }
    }

    func isMutating(_ method: String, on type: String) -> Bool {
        if FreeVariables.mutatingMethods.contains(method) { return true }
        let core = SourceIndex.coreTypeName(type)
        guard let indexed = context.index.types[core], indexed.kind != .class, indexed.kind != .actor else { return false }
        if let (_, mayMutate) = GRDBVocabulary.recordMethodResult(method, of: core), mayMutate,
           indexed.inherited.contains(where: { SourceIndex.coreTypeName($0) == "MutablePersistableRecord" }) {
            return ["insert", "save", "upsert"].contains(method)
        }
        return indexed.declarations.contains { declaration in
            declaration.memberBlock.members.contains { item in
                guard let function = item.decl.as(FunctionDeclSyntax.self), function.name.text == method else { return false }
                return function.modifiers.contains { $0.name.text == "mutating" }
            }
        }
    }

    /// Read or write: a read scope reads; in a write, the code writes when
    /// it calls a GRDB method that writes, passes its transaction to a
    /// member the sources declare that writes (``calleeKind(_:)``: a write
    /// transaction type, a body that writes), or calls a member whose name
    /// starts with a writing verb and that does not say otherwise.
    func kind(of nodes: [Syntax]) -> TransactionKind {
        guard scope.kind == .write else { return .read }
        for node in nodes {
            for call in node.descendants(FunctionCallExprSyntax.self) {
                if let known = calleeKind(call) {
                    if known == .write { return .write }
                    continue
                }
                let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                    ?? call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? ""
                if GRDBVocabulary.writingMethods.contains(name) { return .write }
                if ShimPlan.writingVerbs.contains(where: { name.hasPrefix($0) }) { return .write }
            }
            for literal in node.descendants(StringSegmentSyntax.self) {
                let text = literal.content.text.trimmingWhitespace.uppercased()
                if ["INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER"].contains(where: text.hasPrefix) {
                    return .write
                }
            }
        }
        return .read
    }

    func kind(of node: Syntax) -> TransactionKind { kind(of: [node]) }
}
#endif
