#if Txkit
import SwiftSyntax

/// The TransactionKit transaction that replaces a legacy transaction
/// argument of a consumer's code (`--apply`, and `convert` for the callers
/// of a finder): the one a configured bridge was given, inline or in a
/// local; the one of the app's own transaction block once the consumer
/// holds the adopted database; or the lookup bridge when the sources adopt
/// a GRDB pool. Otherwise the one step a person takes
/// (``receivedTransactionStep(_:kind:consumer:legacyTransaction:)``).
struct TransactionArgument {
    let configuration: GeneratorConfiguration
    /// The type whose code passes the argument.
    let consumer: IndexedType
    /// Whether some file of the sources adopts a GRDB pool or queue
    /// (`SQLiteDB(adopting:`), so that the adopted database exists when the
    /// consumer runs and ``lookupBridge(_:_:)`` finds it.
    let sourcesAdoptAPool: Bool

    init(configuration: GeneratorConfiguration, consumer: IndexedType) {
        self.configuration = configuration
        self.consumer = consumer
        sourcesAdoptAPool = consumer.index?.adoptsAPool ?? false
    }

    /// The TransactionKit transaction inside a legacy transaction argument:
    /// the bridge written inline, or a local initialized with it.
    ///
    /// Every configured bridge is recognised, not only the parameter
    /// type's: a legacy layer with a read and a write transaction passes
    /// one where the other is taken (a write transaction built with the
    /// write bridge, handed to a member that takes the read type).
    ///
    /// - Parameter bridgeLocals: Where the local a bridge was read from is
    ///   noted, to be removed once nothing else reads it.
    func transaction(
        for expression: ExprSyntax, type: String, kind: TransactionKind, use: ConsumerUse,
        bridgeLocals: inout [BridgeLocal]
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
            || Self.isGRDBConnection(name, scope: scope, consumer: consumer) {
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
            received, kind: kind, consumer: consumer.name,
            legacyTransaction: configuration.legacyTransaction(forParameterType: type)) {
            throw Refusal(.cannotApply, at: use.location, "\(use.text): \(step)")
        }
        throw Refusal(
            .cannotApply, at: use.location,
            "\(use.text): its \(type) `\(expression.trimmedText)` is not built with a bridge of txkit.json "
                + "(\(bridges.joined(separator: " or "))) here or in a local, so --apply cannot tell which "
                + "TransactionKit transaction to pass",
            fix: "edit this call by hand")
    }

    /// The text `$tx` stands for when `expression` is `bridge`, spaces aside.
    static func match(_ expression: ExprSyntax, bridge: String) -> String? {
        let squeeze = { (text: String) in text.filter { !$0.isWhitespace } }
        let parts = bridge.components(separatedBy: "$tx")
        guard parts.count == 2 else { return nil }
        let text = squeeze(expression.trimmedText)
        let (prefix, suffix) = (squeeze(parts[0]), squeeze(parts[1]))
        guard text.count > prefix.count + suffix.count, text.hasPrefix(prefix), text.hasSuffix(suffix) else {
            return nil
        }
        let inner = text.dropFirst(prefix.count).dropLast(suffix.count)
        return inner.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } ? String(inner) : nil
    }

    /// `transaction.database` for a parameter `transaction` of an app's own
    /// legacy transaction class that keeps GRDB's connection in a stored
    /// property (its own or its superclass's): the connection a received
    /// app transaction stands for. `nil` for anything else.
    func grdbConnection(ofReceived expression: ExprSyntax) -> String? {
        guard let reference = expression.as(DeclReferenceExprSyntax.self),
              let (_, parameter) = expression.enclosingFunctionParameter(named: reference.baseName.text),
              let index = consumer.index
        else { return nil }
        var typeName: String? = parameter.type.trimmedText
        var visited: Set<String> = []
        while let name = typeName, visited.insert(name).inserted, let type = index.types[name] {
            for declaration in type.declarations {
                for item in declaration.memberBlock.members {
                    guard let variable = item.decl.as(VariableDeclSyntax.self),
                          !variable.modifiers.contains(where: { ["static", "class", "private", "fileprivate"].contains($0.name.text) })
                    else { continue }
                    for binding in variable.bindings {
                        if let property = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                           let declared = binding.typeAnnotation?.type.trimmedText,
                           ["Database", "GRDB.Database"].contains(declared) {
                            return "\(reference.baseName.text).\(property)"
                        }
                    }
                }
            }
            typeName = type.inherited.first
        }
        return nil
    }
}
#endif
