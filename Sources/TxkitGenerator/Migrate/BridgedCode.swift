#if Txkit
import SwiftSyntax

/// Code of a consumer that already opens TransactionKit transactions but
/// bridges them back to the legacy transaction inside its blocks
/// (`db.read { tx in let db = try SQLiteDB.shimOnlyBridge(tx); … }`, or
/// `finder.count(try SQLiteDB.shimOnlyBridge(tx))`): bridged, not migrated.
///
/// A bridge is an expression of the block that is one of the configured
/// legacy bridges (`txkit.json`'s `bridge`, `$tx` the block's transaction),
/// or `SQLiteDB.shimOnlyBridge(tx)` itself, with or without its `try` (a
/// `Database`), or that call passed alone to a configured legacy
/// transaction type (`AppReadTransaction(SQLiteDB.shimOnlyBridge(tx))`).
struct BridgedCode {
    /// The legacy transaction the bridges make (`Database`, `AppReadTransaction`).
    var legacyType: String
    /// The name the legacy transaction has in the code: the local a bridge
    /// is bound to, or a name the block does not use (the bridges inline).
    var legacyName: String
    /// The local's declaration (its pattern), when a bridge is bound to one.
    var legacyDeclaration: Syntax?
    /// The statement that binds it (`let db = try SQLiteDB.shimOnlyBridge(tx)`):
    /// it goes once the code that used it is on the shims.
    var binding: CodeBlockItemSyntax?
    /// The bridges written where the legacy transaction is used.
    var inline: [ExprSyntax]

    /// Why a block's bridges cannot be read as one legacy transaction.
    struct Unreadable: Error {
        var node: Syntax
        var reason: String
    }

    /// The bridges of `transaction` in `closure`, or `nil` when it has none.
    static func find(
        in closure: ClosureExprSyntax, transaction: String, configuration: GeneratorConfiguration, avoiding taken: Set<String>
    ) -> Result<BridgedCode, Unreadable>? {
        find(in: closure.statements, transaction: transaction, configuration: configuration, avoiding: taken)
    }

    /// The bridges of `transaction` in `statements` (a block's, or the body
    /// of a method that receives the TransactionKit transaction), or `nil`
    /// when they have none.
    static func find(
        in statements: CodeBlockItemListSyntax, transaction: String, configuration: GeneratorConfiguration, avoiding taken: Set<String>
    ) -> Result<BridgedCode, Unreadable>? {
        let templates = bridgeTemplates(transaction: transaction, configuration: configuration)
        var found: [(ExprSyntax, String)] = []
        for expression in statements.descendants(ExprSyntax.self) {
            if found.contains(where: { LocalDeclaration.isInside(expression, $0.0) }) { continue }
            if let type = bridgedType(expression, transaction: transaction, templates: templates, configuration: configuration) {
                found.append((expression, type))
            }
        }
        guard let first = found.first else { return nil }
        if let other = found.first(where: { $0.1 != first.1 }) {
            return .failure(Unreadable(node: Syntax(other.0),
                reason: "the block bridges its transaction to both `\(first.1)` and `\(other.1)`"))
        }
        var bindings: [(CodeBlockItemSyntax, String, Syntax)] = []
        var inline: [ExprSyntax] = []
        for (expression, _) in found {
            if let bound = binding(of: expression) {
                bindings.append(bound)
            } else {
                inline.append(expression)
            }
        }
        if bindings.count > 1 {
            return .failure(Unreadable(node: Syntax(bindings[1].0),
                reason: "the block binds its bridged transaction to more than one local (`\(bindings[0].1)`, `\(bindings[1].1)`)"))
        }
        let names = Set(statements.descendants(DeclReferenceExprSyntax.self).map(\.baseName.text)).union(taken)
        let name = bindings.first?.1 ?? ["db", "legacy", "legacyDB", "connection"].first { !names.contains($0) } ?? "bridgedLegacy"
        return .success(BridgedCode(
            legacyType: first.1, legacyName: name, legacyDeclaration: bindings.first?.2, binding: bindings.first?.0, inline: inline))
    }

    /// The configured bridges, `$tx` replaced, without spaces; and their types.
    private static func bridgeTemplates(transaction: String, configuration: GeneratorConfiguration) -> [(String, String)] {
        var templates = configuration.legacyTransactions.map { legacy in
            (compact(legacy.bridge.replacingOccurrences(of: "$tx", with: transaction)), legacy.type)
        }
        templates += ["try SQLiteDB.shimOnlyBridge(\(transaction))", "SQLiteDB.shimOnlyBridge(\(transaction))"].map { (compact($0), "Database") }
        return templates
    }

    private static func compact(_ text: String) -> String {
        String(text.filter { !$0.isWhitespace })
    }

    /// The legacy transaction type `expression` bridges to, if it is a bridge.
    private static func bridgedType(
        _ expression: ExprSyntax, transaction: String, templates: [(String, String)], configuration: GeneratorConfiguration
    ) -> String? {
        let text = compact(expression.trimmedDescription)
        if let (_, type) = templates.first(where: { $0.0 == text }) { return type }
        // `AppReadTransaction(try SQLiteDB.shimOnlyBridge(tx))` written another way than configured.
        var call = expression
        if let tried = expression.as(TryExprSyntax.self) { call = tried.expression }
        guard let wrapping = call.as(FunctionCallExprSyntax.self), wrapping.arguments.count == 1,
              let argument = wrapping.arguments.first, argument.label == nil,
              templates.contains(where: { $0.1 == "Database" && $0.0 == compact(argument.expression.trimmedDescription) }),
              let type = wrapping.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
              let legacy = configuration.legacyTransaction(forParameterType: type)
        else { return nil }
        return legacy.type
    }

    /// `let db = <bridge>`: the statement, the name and its pattern.
    private static func binding(of expression: ExprSyntax) -> (CodeBlockItemSyntax, String, Syntax)? {
        guard let initializer = expression.parent?.as(InitializerClauseSyntax.self),
              let binding = initializer.parent?.as(PatternBindingSyntax.self),
              let pattern = binding.pattern.as(IdentifierPatternSyntax.self),
              let variable = binding.parent?.parent?.as(VariableDeclSyntax.self), variable.bindings.count == 1,
              variable.bindingSpecifier.text == "let",
              let item = variable.parent?.as(CodeBlockItemSyntax.self), item.parent?.is(CodeBlockItemListSyntax.self) == true
        else { return nil }
        return (item, pattern.identifier.text, Syntax(pattern))
    }
}
#endif
