#if Txkit
import SwiftSyntax

/// Names for what the extractor moves, after what the code does: the GRDB
/// method and the record (`fetchAllAccounts`, `insertTransfer`), the
/// member it calls (`requireAccount`), the SQL statement's verb and table
/// (`deleteFromSetting`), else the consumer method it comes from.
extension LegacyCodeExtractor {
    func name(forExpression expression: ExprSyntax) -> String {
        if let call = expression.as(FunctionCallExprSyntax.self) {
            return boundValueName(call, binding: Self.binding(around: Syntax(expression))) ?? name(forCall: call)
        }
        if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return scope.methodName
    }

    func name(forStatements nodes: [Syntax]) -> String {
        let isSimple = nodes.count == 1 && nodes.allSatisfy { node in
            let item = node.as(CodeBlockItemSyntax.self)?.item
            return item?.is(ExprSyntax.self) == true || item?.is(VariableDeclSyntax.self) == true
        }
        if isSimple, let call = nodes[0].descendants(FunctionCallExprSyntax.self).first(where: usesLegacyTransaction) {
            let variable = nodes[0].as(CodeBlockItemSyntax.self)?.item.as(VariableDeclSyntax.self)
            return boundValueName(call, binding: variable?.bindings.count == 1 ? variable?.bindings.first : nil) ?? name(forCall: call)
        }
        return scope.methodName
    }

    /// `let opening = try Int64.fetchOne(db, sql: …) ?? 0` → `fetchOpening`:
    /// a fetch of a plain value or a row says what it fetches by the name
    /// the code binds it to, not by its type.
    private func boundValueName(_ call: FunctionCallExprSyntax, binding: PatternBindingSyntax?) -> String? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              ["fetchOne", "fetchAll", "fetchSet"].contains(member.declName.baseName.text),
              let base = member.base?.as(DeclReferenceExprSyntax.self),
              GRDBVocabulary.fetchableValueTypes.contains(base.baseName.text) || base.baseName.text == "Row",
              let variable = binding?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { return nil }
        return "fetch" + SwiftText.capitalized(variable)
    }

    /// The binding whose initial value `node` is (through `try`, `await`
    /// and a `??` default), if any.
    private static func binding(around node: Syntax) -> PatternBindingSyntax? {
        var current = node
        while let parent = current.parent {
            if let binding = parent.as(PatternBindingSyntax.self) { return binding }
            if parent.is(InitializerClauseSyntax.self) || parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
                current = parent
                continue
            }
            if let list = parent.as(ExprListSyntax.self), list.first?.id == current.id {
                current = parent
                continue
            }
            if let sequence = parent.as(SequenceExprSyntax.self), sequence.elements.count == 3,
               sequence.elements.dropFirst().first?.as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
                current = parent
                continue
            }
            if let infix = parent.as(InfixOperatorExprSyntax.self), infix.leftOperand.id == current.id,
               infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
                current = parent
                continue
            }
            return nil
        }
        return nil
    }

    private func usesLegacyTransaction(_ call: FunctionCallExprSyntax) -> Bool {
        call.arguments.contains { $0.expression.trimmedDescription.hasPrefix(scope.legacyName) }
            || call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.trimmedDescription.hasPrefix(scope.legacyName) == true
    }

    private func name(forCall call: FunctionCallExprSyntax) -> String {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self) else {
            guard let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text else { return scope.methodName }
            // A type's initializer (`AppReadTransaction(db)`): named for the
            // call it is an argument of; a method named for the type would
            // shadow it in the wrapper, and name it in the consumer.
            guard callee.first?.isUppercase == true else { return callee }
            if let outer = Self.call(taking: call) { return name(forCall: outer) }
            return "make" + callee
        }
        let method = member.declName.baseName.text
        if let sql = sqlName(call) { return sql }
        let record = recordName(member.base)
        switch method {
        case "fetchOne": return record.map { "fetch" + $0 } ?? method
        case "fetchAll", "fetchSet": return record.map { "fetch" + Self.plural($0) } ?? method
        case "fetchCount": return record.map { "count" + Self.plural($0) } ?? method
        case "exists": return record.map { SwiftText.lowercasedFirst($0) + "Exists" } ?? method
        case "deleteOne", "deleteAll": return record.map { "delete" + (method == "deleteAll" ? Self.plural($0) : $0) } ?? method
        case "insert", "inserted", "insertAndFetch", "save", "saved", "update", "updateChanges", "upsert", "delete":
            let verb = method.hasSuffix("ed") && method != "updateChanges" ? String(method.dropLast(method == "saved" ? 1 : 2)) : method
            return record.map { (verb == "insertAndFetch" ? "insert" : verb) + $0 } ?? method
        default:
            return method
        }
    }

    /// The call `argument` is an argument of (through `try`), if any.
    private static func call(taking argument: FunctionCallExprSyntax) -> FunctionCallExprSyntax? {
        var current = Syntax(argument)
        while let parent = current.parent {
            if let call = parent.as(FunctionCallExprSyntax.self) { return call.arguments.id == current.id ? call : nil }
            guard parent.is(LabeledExprSyntax.self) || parent.is(LabeledExprListSyntax.self) || parent.is(TryExprSyntax.self) else { return nil }
            current = parent
        }
        return nil
    }

    /// The record or value type a GRDB call works on: the type of a static
    /// call's base (`Account.filter(…)` → `Account`), or of the value.
    private func recordName(_ base: ExprSyntax?) -> String? {
        var node = base
        while let current = node {
            if let reference = current.as(DeclReferenceExprSyntax.self) {
                let name = reference.baseName.text
                if name.first?.isUppercase == true { return name }
                return context.typer.type(of: ExprSyntax(reference)).map { SwiftText.identifier(from: TypeText.unwrapped($0)) }
            }
            if let call = current.as(FunctionCallExprSyntax.self) {
                if let type = call.calledExpression.as(DeclReferenceExprSyntax.self), type.baseName.text.first?.isUppercase == true {
                    return type.baseName.text
                }
                node = call.calledExpression.as(MemberAccessExprSyntax.self)?.base ?? call.calledExpression
                continue
            }
            if let member = current.as(MemberAccessExprSyntax.self) {
                node = member.base
                continue
            }
            return nil
        }
        return nil
    }

    /// `db.execute(sql: "DELETE FROM setting …")` → `deleteFromSetting`.
    private func sqlName(_ call: FunctionCallExprSyntax) -> String? {
        guard let argument = call.arguments.first(where: { $0.label?.text == "sql" }),
              let literal = argument.expression.as(StringLiteralExprSyntax.self)
        else { return nil }
        let words = literal.segments.trimmedDescription
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init)
        guard let verb = words.first?.uppercased() else { return nil }
        func table(after keyword: String) -> String? {
            guard let position = words.firstIndex(where: { $0.uppercased() == keyword }), position + 1 < words.count else { return nil }
            return SwiftText.identifier(from: words[position + 1].replacingOccurrences(of: "_", with: " "))
        }
        switch verb {
        case "DELETE": return table(after: "FROM").map { "deleteFrom" + $0 }
        case "UPDATE": return words.count > 1 ? "update" + SwiftText.identifier(from: words[1].replacingOccurrences(of: "_", with: " ")) : nil
        case "INSERT", "REPLACE": return table(after: "INTO").map { "insertInto" + $0 }
        default: return nil
        }
    }

    static func plural(_ word: String) -> String {
        if word.hasSuffix("s") || word.hasSuffix("x") || word.hasSuffix("ch") { return word + "es" }
        if word.hasSuffix("y"), let before = word.dropLast().last, !"aeiou".contains(before) { return word.dropLast() + "ies" }
        return word + "s"
    }
}
#endif
