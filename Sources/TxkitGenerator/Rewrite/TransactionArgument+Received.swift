#if Txkit
import SwiftSyntax

extension TransactionArgument {
    /// The one step `--apply` asks for when a consumer passes on a legacy
    /// transaction it did not build from a TransactionKit transaction: one
    /// it receives from its callers (a parameter), or the connection of a
    /// transaction block the application opens itself (`pool.write { db in
    /// … }`). `nil` when the transaction comes from elsewhere.
    static func receivedTransactionStep(
        _ expression: ExprSyntax, kind: TransactionKind, consumer: String,
        legacyTransaction: GeneratorConfiguration.LegacyTransaction?
    ) -> String? {
        guard let reference = expression.as(DeclReferenceExprSyntax.self) else { return nil }
        let name = reference.baseName.text
        let reverse = { (legacy: String) in
            legacyTransaction?.reverseBridge(for: kind, legacy: legacy)
                ?? (kind == .write ? GeneratorConfiguration.LegacyTransaction.defaultReverseBridge.write
                    : GeneratorConfiguration.LegacyTransaction.defaultReverseBridge.read)
                    .replacingOccurrences(of: "$legacy", with: legacy)
        }
        // The default reverse bridge is the adoption API's, which takes
        // GRDB's `Database` only (firefox-ios's `SQLiteDBConnection` was
        // told to use it).
        let defaultNote = legacyTransaction.flatMap { entry -> String? in
            guard entry.reverseBridge == nil, !["Database", "GRDB.Database"].contains(entry.type) else { return nil }
            return "; this default takes GRDB's `Database` only: for \(entry.type), write the expression that gives a "
                + "TransactionKit transaction for one as its reverseBridge in txkit.json, Guides/Configuration.md"
        } ?? ""
        var current = Syntax(expression)
        while let parent = current.parent {
            if let closure = parent.as(ClosureExprSyntax.self), closure.declaresParameter(named: name) {
                let block = closure.calledExpressionText.map { "`\($0) { \(name) in … }`" } ?? "a closure"
                let receiver = String(reverse(name).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                return "`\(name)` is the connection of \(block), a transaction the application opens itself. "
                    + "One step, once per consumer: give \(consumer) the SQLiteDB that adopted the application's "
                    + "pool as a stored property `\(receiver)` (adopted once, at startup, and passed in); --apply "
                    + "then passes `try \(reverse(name))` (txkit.json's reverseBridge\(defaultNote)) to the shim. Or declare "
                    + "`let tx = try \(reverse(name))` in the block, or replace the block by the adopted "
                    + "SQLiteDB's own `write { tx in … }` / `read { tx in … }`; then run --apply "
                    + "again (Guides/MigratingLegacyFinders.md, \"A consumer that still receives a legacy "
                    + "transaction\"). Once the app adopts its GRDB pool at startup (`SQLiteDB(adopting:)`, which "
                    + "no file of the sources calls yet), --apply bridges GRDB's `Database` with "
                    + "`try \(lookupBridge(kind, name))`, which finds the adopted database"
            }
            if let function = parent.as(FunctionDeclSyntax.self) {
                guard function.signature.parameterClause.parameters.contains(where: {
                    $0.internalName == name
                }) else { return nil }
                return "`\(name)` is a parameter of \(consumer).\(function.name.text): \(consumer) still receives "
                    + "the legacy transaction from its callers. One step: make \(function.name.text) take "
                    + "`\(name): \(kind)` and pass it on here, and have each caller that holds a legacy "
                    + "transaction pass `\(reverse("<its transaction>"))` (txkit.json's reverseBridge\(defaultNote)); then run "
                    + "--apply again (Guides/MigratingLegacyFinders.md, \"A consumer that still receives a legacy "
                    + "transaction\"). When it is GRDB's `Database` and the app adopts its pool at startup "
                    + "(`SQLiteDB(adopting:)`), --apply passes `try \(lookupBridge(kind, name))` here itself"
            }
            current = parent
        }
        return nil
    }

    /// The connection `name` of the app's own transaction block around
    /// `expression` (`pool.read { db in … }`), or a parameter through which
    /// the consumer receives its caller's (`func f(db: Database)`): `db`
    /// itself, or `db` inside a legacy transaction built from it
    /// (`AppReadTransaction(db)`). The scope is the closure or the function.
    static func blockConnection(
        _ expression: ExprSyntax, isLegacyTransactionType: (String) -> Bool
    ) -> (name: String, scope: Syntax)? {
        var reference = expression.as(DeclReferenceExprSyntax.self)
        if reference == nil, let call = expression.as(FunctionCallExprSyntax.self),
           isLegacyTransactionType(call.calledExpression.trimmedText), call.arguments.count == 1,
           call.arguments.first?.label == nil {
            reference = call.arguments.first?.expression.as(DeclReferenceExprSyntax.self)
        }
        guard let reference else { return nil }
        let name = reference.baseName.text
        var current = Syntax(expression)
        while let parent = current.parent {
            if let closure = parent.as(ClosureExprSyntax.self), closure.declaresParameter(named: name) {
                return (name, Syntax(closure))
            }
            if let function = parent.as(FunctionDeclSyntax.self) {
                let isParameter = function.signature.parameterClause.parameters.contains {
                    $0.internalName == name
                }
                return isParameter ? (name, Syntax(function)) : nil
            }
            if parent.is(MemberBlockItemSyntax.self) { return nil }
            current = parent
        }
        return nil
    }

    /// The TransactionKit transaction for the connection `name` of the
    /// app's own block: a local of the block that a person bridged it to
    /// (`let tx = try sqlite.readTransaction(bridging: db)`), or the
    /// reverse bridge written inline when its receiver (`sqlite`) is a
    /// stored property of the consumer. `nil` otherwise. (A `DatabaseQueue`'s
    /// `read` block is bridged like a pool's: `readTransaction(bridging:)`
    /// sees the queue's read-only access.)
    func blockTransaction(
        connection name: String, scope: Syntax, before node: Syntax, kind: TransactionKind
    ) throws -> String? {
        let databaseEntry = configuration.legacyTransactions.first { $0.type == "Database" }
        let reverse = { (kind: TransactionKind) in
            databaseEntry?.reverseBridge(for: kind, legacy: name)
                ?? (kind == .write ? GeneratorConfiguration.LegacyTransaction.defaultReverseBridge.write
                    : GeneratorConfiguration.LegacyTransaction.defaultReverseBridge.read)
                    .replacingOccurrences(of: "$legacy", with: name)
        }
        let squeeze = { (text: String) in text.filter { !$0.isWhitespace } }
        let accepted = Set([reverse(.read), reverse(.write), Self.lookupBridge(.read, name), Self.lookupBridge(.write, name)]
            .map(squeeze))
        // A local a person wrote, before the call, in the block.
        var current = node
        while let parent = current.parent, current.id != scope.id {
            if let list = parent.as(CodeBlockItemListSyntax.self), let item = current.as(CodeBlockItemSyntax.self) {
                for candidate in list where candidate.position < item.position {
                    guard let variable = candidate.item.as(VariableDeclSyntax.self), variable.bindings.count == 1,
                          let binding = variable.bindings.first,
                          let local = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                          var value = binding.initializer?.value
                    else { continue }
                    if let tried = value.as(TryExprSyntax.self) { value = tried.expression }
                    if accepted.contains(squeeze(value.trimmedText)) { return local }
                }
            }
            current = parent
        }
        // The receiver of the reverse bridge, held by the consumer.
        let expression = reverse(kind)
        let receiver = String(expression.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        let holds = consumer.declarations.contains { declaration in
            declaration.memberBlock.members.contains { item in
                guard let variable = item.decl.as(VariableDeclSyntax.self),
                      !variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" })
                else { return false }
                return variable.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == receiver }
            }
        }
        if holds && !receiver.isEmpty {
            return "try \(expression)"
        }
        // The default bridge, on the adopted database the consumer does not
        // hold: the type finds it from GRDB's connection, provided the app
        // adopts its pool somewhere (its sources say so).
        guard databaseEntry?.reverseBridge == nil, Self.isGRDBConnection(name, scope: scope, consumer: consumer),
              sourcesAdoptAPool
        else { return nil }
        return "try \(Self.lookupBridge(kind, name))"
    }

    /// The GRDB types whose `read`/`write` blocks receive GRDB's `Database`.
    static let grdbAccessTypes: Set<String> = [
        "DatabasePool", "DatabaseQueue", "DatabaseWriter", "any DatabaseWriter", "DatabaseReader", "any DatabaseReader",
    ]

    /// Whether `name`, declared by `scope`, is GRDB's `Database`: a
    /// parameter of that type, or the connection of a block opened on a
    /// GRDB pool, queue, reader or writer (a stored property or a parameter).
    static func isGRDBConnection(_ name: String, scope: Syntax, consumer: IndexedType) -> Bool {
        let bare = { (type: String) in
            var type = type.trimmingCharacters(in: .whitespaces)
            while type.hasSuffix("?") || type.hasSuffix("!") { type.removeLast() }
            return type.hasPrefix("GRDB.") ? String(type.dropFirst(5)) : type
        }
        if let function = scope.as(FunctionDeclSyntax.self) {
            return function.signature.parameterClause.parameters.contains {
                $0.internalName == name && bare($0.type.trimmedText) == "Database"
            }
        }
        guard let closure = scope.as(ClosureExprSyntax.self), let called = closure.calledExpressionText,
              let dot = called.lastIndex(of: ".")
        else { return false }
        let receiver = String(called[..<dot])
        if let type = storedPropertyType(receiver, in: consumer) {
            return grdbAccessTypes.contains(bare(type))
        }
        var current = Syntax(closure)
        while let parent = current.parent {
            if let function = parent.as(FunctionDeclSyntax.self) {
                return function.signature.parameterClause.parameters.contains {
                    $0.internalName == receiver && grdbAccessTypes.contains(bare($0.type.trimmedText))
                }
            }
            current = parent
        }
        return false
    }

    /// `SQLiteDB.readTransaction(bridging: db)`: the bridge that finds the
    /// `SQLiteDB` that adopted the pool of connection `name`, for consumers
    /// that hold no adopted database.
    static func lookupBridge(_ kind: TransactionKind, _ name: String) -> String {
        "SQLiteDB.\(kind == .write ? "write" : "read")Transaction(bridging: \(name))"
    }

    /// The declared type of the consumer's stored property `name`, if it
    /// has one (`self.` aside).
    static func storedPropertyType(_ name: String, in consumer: IndexedType) -> String? {
        let bare = name.hasPrefix("self.") ? String(name.dropFirst(5)) : name
        for declaration in consumer.declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == bare {
                    return binding.typeAnnotation?.type.trimmedText
                }
            }
        }
        return nil
    }
}
#endif
