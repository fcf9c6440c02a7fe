#if Txkit
import SwiftSyntax

/// Walks one method body: the SQL it holds, and the calls made on its
/// transaction (or on a value reached from it: `transaction.database`).
final class BodyScanner: SyntaxVisitor {
    /// SQL verbs that change the database.
    static let writingSQLVerbs = ["INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER"]
    /// GRDB methods that write, called on a database or a record given one.
    static let writingCalls: Set<String> = [
        "execute", "insert", "insertAndFetch", "save", "saveAndFetch", "update", "updateAndFetch", "updateChanges",
        "updateAll", "delete", "deleteAll", "deleteOne", "upsert", "upsertAndFetch", "create", "drop", "alter",
        "rename",
    ]
    /// Names GRDB code gives a connection, whose writes count even when the
    /// body reached them some other way.
    static let databaseNames: Set<String> = ["db", "database"]

    private var tracked: Set<String>
    private let memberNames: Set<String>
    private let typeName: String
    private(set) var writingSQL: String?
    private(set) var writingCall: String?
    private(set) var readingCall: String?
    /// Members of the type called with the transaction, in order.
    private(set) var calledMembers: [String] = []
    /// Whether the transaction goes somewhere the scanner cannot follow.
    private(set) var escapes = false
    private(set) var touchesTransaction = false

    init(tracked: Set<String>, memberNames: Set<String>, typeName: String) {
        self.tracked = tracked
        self.memberNames = memberNames
        self.typeName = typeName
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        guard writingSQL == nil else { return .skipChildren }
        let text = node.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
        writingSQL = Self.writingStatement(text)
        return .skipChildren
    }

    /// The verb of SQL that changes the database (`UPDATE` of
    /// `UPDATE item SET …`), any case; `nil` for other SQL and for prose
    /// such as "Update failed" (the verb must be followed as SQL follows it).
    static func writingStatement(_ text: String) -> String? {
        let words = text.split { !$0.isLetter && $0 != "_" }.prefix(12).map { $0.uppercased() }
        guard let verb = words.first, words.count > 1, writingSQLVerbs.contains(verb) else { return nil }
        let objects: Set<String> = ["TABLE", "INDEX", "VIEW", "TRIGGER", "UNIQUE", "TEMP", "TEMPORARY", "VIRTUAL", "IF"]
        switch verb {
        case "INSERT", "REPLACE": return ["INTO", "OR"].contains(words[1]) ? verb : nil
        case "DELETE": return words[1] == "FROM" ? verb : nil
        case "UPDATE": return words.contains("SET") ? verb : nil
        default: return objects.contains(words[1]) ? verb : nil
        }
    }

    /// `let db = transaction.database` tracks `db` too.
    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
           let value = node.initializer?.value, root(of: Self.unwrapped(value)).map(isTracked) == true {
            tracked.insert(name)
        }
        return .visitChildren
    }

    /// `transaction.database.inSavepoint { db in … }` tracks `db`.
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        let call = node.parent?.as(FunctionCallExprSyntax.self)
            ?? node.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
        guard let base = call?.calledExpression.as(MemberAccessExprSyntax.self)?.base,
              root(of: base).map(isTracked) == true
        else { return .visitChildren }
        switch node.signature?.parameterClause {
        case let .simpleInput(names)?:
            for name in names { tracked.insert(name.name.text) }
        case let .parameterClause(clause)?:
            for parameter in clause.parameters { tracked.insert((parameter.secondName ?? parameter.firstName).text) }
        case nil:
            break
        }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.baseName.text
        // `database` in `transaction.database` is a member, not a root.
        if let parent = node.parent?.as(MemberAccessExprSyntax.self), parent.declName.id == node.id {
            return .skipChildren
        }
        guard tracked.contains(name) || Self.databaseNames.contains(name) else { return .skipChildren }
        let isTransaction = tracked.contains(name)
        if isTransaction { touchesTransaction = true }
        // Up the chain it roots: `transaction.database.execute`.
        var expression = Syntax(node)
        while let member = expression.parent?.as(MemberAccessExprSyntax.self), member.base?.id == expression.id {
            expression = Syntax(member)
        }
        if let call = expression.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == expression.id {
            classify(chainCall: call, isTransaction: isTransaction)
            return .skipChildren
        }
        guard isTransaction else { return .skipChildren }
        let outer = Self.outermost(expression)
        if let call = Self.callTaking(outer) {
            classify(argumentOf: call)
        } else if outer.parent?.is(InitializerClauseSyntax.self) == true {
            // Bound to a local, tracked by `visit(PatternBindingSyntax)`.
        } else if !Self.isHarmlessUse(outer) {
            escapes = true
        }
        return .skipChildren
    }

    private func classify(chainCall call: FunctionCallExprSyntax, isTransaction: Bool) {
        guard let method = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text else {
            // The transaction called as a function.
            escapes = escapes || isTransaction
            return
        }
        if Self.writingCalls.contains(method) {
            writingCall = writingCall ?? "\(method)(…)"
        } else if method.hasPrefix("fetch") || method == "exists" || method == "tableExists" {
            readingCall = readingCall ?? "\(method)(…)"
        } else if isTransaction && call.trailingClosure == nil
                    && !call.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) }) {
            escapes = true
        }
    }

    /// The transaction passed as an argument: `Row.fetchOne(transaction.database, …)`,
    /// `record.insert(db)`, `self.find(id, transaction: transaction)`.
    private func classify(argumentOf call: FunctionCallExprSyntax) {
        let called = call.calledExpression
        let name: String?
        var isOwnMember = false
        if let reference = called.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
            isOwnMember = memberNames.contains(reference.baseName.text)
        } else if let member = called.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
            let base = member.base?.trimmedText
            isOwnMember = memberNames.contains(member.declName.baseName.text)
                && (base == nil || base == "self" || base == "Self" || base == typeName)
        } else {
            name = nil
        }
        guard let name else {
            escapes = true
            return
        }
        if isOwnMember {
            if !calledMembers.contains(name) { calledMembers.append(name) }
        } else if Self.writingCalls.contains(name) {
            writingCall = writingCall ?? "\(name)(…)"
        } else if name.hasPrefix("fetch") || name == "exists" {
            readingCall = readingCall ?? "\(name)(…)"
        } else {
            escapes = true
        }
    }

    /// The call `expression` is a direct argument of.
    private static func callTaking(_ expression: Syntax) -> FunctionCallExprSyntax? {
        guard let argument = expression.parent?.as(LabeledExprSyntax.self),
              let list = argument.parent?.as(LabeledExprListSyntax.self)
        else { return nil }
        return list.parent?.as(FunctionCallExprSyntax.self)
    }

    /// A use that cannot hand the transaction on: a comparison, a string
    /// interpolation of a property…
    private static func isHarmlessUse(_ expression: Syntax) -> Bool {
        expression.parent?.is(ExprListSyntax.self) == true || expression.parent?.is(ExpressionSegmentSyntax.self) == true
            || expression.parent?.parent?.is(ExpressionSegmentSyntax.self) == true
    }

    /// `expression`, or the `try`, `await` or `&` around it.
    private static func outermost(_ expression: Syntax) -> Syntax {
        var current = expression
        while let parent = current.parent,
              parent.is(InOutExprSyntax.self) || parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
            current = parent
        }
        return current
    }

    private func isTracked(_ name: String) -> Bool { tracked.contains(name) }

    /// The name a chain `a.b.c` starts with.
    private func root(of expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base { return root(of: base) }
        return nil
    }

    /// `try x`, `await x` → `x`.
    private static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
        if let tryExpression = expression.as(TryExprSyntax.self) { return unwrapped(tryExpression.expression) }
        if let awaitExpression = expression.as(AwaitExprSyntax.self) { return unwrapped(awaitExpression.expression) }
        return expression
    }
}
#endif
