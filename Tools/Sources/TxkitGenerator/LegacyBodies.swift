import SwiftSyntax

/// The bodies of a legacy type's methods, and what each executes on its
/// legacy transaction (rules `body` and `calls` of ``AccessRule``).
///
/// It reads syntax only: a body that hands its transaction to code outside
/// the type, or stores it, says nothing (``BodyAccess/unknown``).
final class LegacyBodies {
    /// What a body does with its transaction.
    enum BodyAccess: Equatable {
        /// It writes: `reason` says how ("executes UPDATE"); `via` names the
        /// member of the type that does, when it is not this one.
        case writes(String, via: String?)
        /// It only reads, or never touches its transaction.
        case reads(String)
        /// Nothing the syntax can tell.
        case unknown
    }

    private let legacy: LegacyType
    private let isLegacyTransaction: (String) -> Bool
    /// Every method of the type (private ones too), by its name's location.
    private var functions: [String: FunctionDeclSyntax] = [:]
    /// The locations of the methods of each name that take a legacy
    /// transaction.
    private var locationsByName: [String: [String]] = [:]
    private var cache: [String: BodyAccess] = [:]
    /// The methods being analyzed, against recursion.
    private var inProgress: Set<String> = []

    init(legacy: LegacyType, isLegacyTransaction: @escaping (String) -> Bool) {
        self.legacy = legacy
        self.isLegacyTransaction = isLegacyTransaction
        for declaration in legacy.declarations {
            collect(declaration.memberBlock.members, file: declaration.file)
        }
    }

    private func collect(_ items: MemberBlockItemListSyntax, file: SourceFile) {
        for item in items {
            if let function = item.decl.as(FunctionDeclSyntax.self) {
                let location = file.location(of: function.name)
                functions[location] = function
                if !transactionParameters(of: function).isEmpty {
                    locationsByName[function.name.text, default: []].append(location)
                }
            } else if let ifConfig = item.decl.as(IfConfigDeclSyntax.self) {
                for clause in ifConfig.clauses {
                    if case let .decls(nested)? = clause.elements { collect(nested, file: file) }
                }
            }
        }
    }

    /// The names of a method's legacy transaction parameters.
    private func transactionParameters(of function: FunctionDeclSyntax) -> Set<String> {
        var names: Set<String> = []
        for parameter in function.signature.parameterClause.parameters
        where isLegacyTransaction(Self.bareType(parameter.type.trimmedDescription)) {
            names.insert((parameter.secondName ?? parameter.firstName).text)
        }
        return names
    }

    /// What `member`'s body does with its legacy transaction parameters.
    func access(of member: LegacyMember) -> BodyAccess {
        access(at: member.location)
    }

    private func access(at location: String) -> BodyAccess {
        if let known = cache[location] { return known }
        guard let function = functions[location], let body = function.body, !inProgress.contains(location) else {
            return .unknown
        }
        inProgress.insert(location)
        defer { inProgress.remove(location) }

        let tracked = transactionParameters(of: function)
        let scanner = BodyScanner(tracked: tracked, memberNames: Set(locationsByName.keys), typeName: legacy.name)
        scanner.walk(body)

        var result: BodyAccess
        if let sql = scanner.writingSQL {
            result = .writes("executes \(sql)", via: nil)
        } else if let call = scanner.writingCall {
            result = .writes("calls \(call) on its transaction", via: nil)
        } else if let written = firstWritingCallee(scanner.calledMembers) {
            result = written
        } else if scanner.escapes || scanner.calledMembers.contains(where: { name in
            (locationsByName[name] ?? []).contains { access(at: $0) == .unknown }
        }) {
            result = .unknown
        } else if let read = scanner.readingCall {
            result = .reads("only reads (\(read))")
        } else if !scanner.touchesTransaction && !tracked.isEmpty {
            result = .reads("never uses its transaction")
        } else if !scanner.calledMembers.isEmpty {
            result = .reads("only calls members that read")
        } else {
            result = .unknown
        }
        cache[location] = result
        return result
    }

    /// The first method called (with the transaction) that writes.
    private func firstWritingCallee(_ names: [String]) -> BodyAccess? {
        for name in names {
            for location in locationsByName[name] ?? [] {
                if case let .writes(reason, via) = access(at: location) {
                    return .writes(reason, via: via ?? "\(legacy.name).\(Self.displayName(of: functions[location]!))")
                }
            }
        }
        return nil
    }

    /// `name(label:_:)`.
    private static func displayName(of function: FunctionDeclSyntax) -> String {
        let labels = function.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined()
        return "\(function.name.text)(\(labels))"
    }

    /// `T` of `T?`, `T!`, `inout T`.
    static func bareType(_ type: String) -> String {
        var type = type
        if type.hasPrefix("inout ") { type = String(type.dropFirst("inout ".count)) }
        while type.hasSuffix("?") || type.hasSuffix("!") { type = String(type.dropLast()) }
        return type
    }
}

/// Walks one method body: the SQL it holds, and the calls made on its
/// transaction (or on a value reached from it: `transaction.database`).
private final class BodyScanner: SyntaxVisitor {
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
        let firstWord = text.drop { $0.isWhitespace }.prefix { $0.isLetter }.uppercased()
        if Self.writingSQLVerbs.contains(firstWord) { writingSQL = firstWord }
        return .skipChildren
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
            let base = member.base?.trimmedDescription
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
