#if Txkit
import SwiftSyntax

/// What an expression is, as far as the source says without a type checker.
enum ExpressionType: Equatable {
    /// A value of a named type (optionality dropped: `Legacy?` is `Legacy`).
    case instance(String)
    /// A type itself: `Legacy` in `Legacy.find(…)`.
    case metatype(String)
    /// A literal, which fits any type that literal can build.
    case literal(Literal)
    /// `.someCase`, whose type is the parameter's.
    case implicitMember(String)

    enum Literal: Equatable {
        case integer, float, string, boolean, `nil`
    }

    /// The named type of an instance.
    var instanceType: String? {
        if case let .instance(type) = self { return type }
        return nil
    }
}

/// Types consumer expressions from the sources: written types, initializers,
/// static members and singletons, the declared result types of members
/// (of legacy types and of any other type in the tree), optional chaining,
/// `try`, `await`, casts and literals.
///
/// It knows what the declarations say, nothing more: an expression whose
/// type only the compiler could infer (a generic result, a closure's
/// inferred parameter, a subscript) is `nil`, and the inventory lists the
/// legacy references it could not follow.
struct ExpressionTyper {
    let index: SourceIndex
    /// The type whose code is read, for `self` and unqualified members.
    let consumer: String

    /// The type of `expression`, with `scopes` mapping the names in scope
    /// to their written types (innermost last).
    func type(of expression: ExprSyntax, in scopes: [[String: String]]) -> ExpressionType? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return type(ofName: reference.baseName.text, in: scopes)
        }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            guard let base = member.base else { return .implicitMember(name) }
            guard let baseType = type(of: base, in: scopes) else { return nil }
            return type(ofMember: name, of: baseType, in: scopes)
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            return type(ofCall: call, in: scopes)
        }
        if let optional = expression.as(OptionalChainingExprSyntax.self) {
            return type(of: optional.expression, in: scopes)
        }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) {
            return type(of: forced.expression, in: scopes)
        }
        if let tried = expression.as(TryExprSyntax.self) {
            return type(of: tried.expression, in: scopes)
        }
        if let awaited = expression.as(AwaitExprSyntax.self) {
            return type(of: awaited.expression, in: scopes)
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
           let only = tuple.elements.first, only.label == nil {
            return type(of: only.expression, in: scopes)
        }
        if let cast = expression.as(AsExprSyntax.self) {
            return .instance(index.resolvedTypeName(cast.type.trimmedText))
        }
        if expression.is(IntegerLiteralExprSyntax.self) { return .literal(.integer) }
        if expression.is(FloatLiteralExprSyntax.self) { return .literal(.float) }
        if expression.is(StringLiteralExprSyntax.self) { return .literal(.string) }
        if expression.is(BooleanLiteralExprSyntax.self) { return .literal(.boolean) }
        if expression.is(NilLiteralExprSyntax.self) { return .literal(.nil) }
        return nil
    }

    /// A written type as the typer records it.
    func instance(ofWritten type: String) -> ExpressionType {
        .instance(resolved(type))
    }

    private func resolved(_ type: String) -> String {
        let core = SourceIndex.coreTypeName(type)
        if index.types[core] == nil, index.typealiases["\(consumer).\(core)"] != nil {
            return index.resolvedTypeName("\(consumer).\(core)")
        }
        return index.resolvedTypeName(core)
    }

    private func type(ofName name: String, in scopes: [[String: String]]) -> ExpressionType? {
        switch name {
        case "self": return .instance(consumer)
        case "Self": return .metatype(consumer)
        default: break
        }
        for frame in scopes.reversed() {
            if let type = frame[name] { return instance(ofWritten: type) }
        }
        if name.first?.isUppercase == true {
            let type = resolved(name)
            if index.types[type] != nil { return .metatype(type) }
        }
        // A property of the consumer reached without `self.`.
        let properties = index.types[consumer]?.allMembers { $0.name == name && $0.kind != .function } ?? []
        return properties.first?.resultType.map { instance(ofWritten: $0) }
    }

    private func type(
        ofMember name: String, of base: ExpressionType, in scopes: [[String: String]]
    ) -> ExpressionType? {
        switch base {
        case let .instance(type):
            if type == consumer, let written = scopes.first?[name] { return instance(ofWritten: written) }
            let properties = index.members(named: name, of: type, isStatic: false).filter { $0.kind != .function }
            return properties.first.map { result(of: $0, on: type) }
        case let .metatype(type):
            if index.types["\(type).\(name)"] != nil { return .metatype("\(type).\(name)") }
            if index.types[type]?.enumCases.contains(name) == true { return .instance(type) }
            let properties = index.members(named: name, of: type, isStatic: true).filter { $0.kind != .function }
            return properties.first.map { result(of: $0, on: type) }
        case .literal, .implicitMember:
            return nil
        }
    }

    private func type(ofCall call: FunctionCallExprSyntax, in scopes: [[String: String]]) -> ExpressionType? {
        let callee = call.calledExpression
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if case let .metatype(type)? = type(ofName: name, in: scopes) { return .instance(type) }
            // A method of the consumer called without `self.`.
            let methods = index.members(named: name, of: consumer, isStatic: false)
                + index.members(named: name, of: consumer, isStatic: true)
            return methods.first { $0.kind == .function }.map { result(of: $0, on: consumer) }
        }
        guard let member = callee.as(MemberAccessExprSyntax.self) else { return nil }
        let name = member.declName.baseName.text
        guard let base = member.base, let baseType = type(of: base, in: scopes) else { return nil }
        let (type, isStatic): (String, Bool)
        switch baseType {
        case let .instance(instance): (type, isStatic) = (instance, false)
        case let .metatype(metatype):
            if name == "init" { return .instance(metatype) }
            if index.types["\(metatype).\(name)"] != nil { return .instance("\(metatype).\(name)") }
            (type, isStatic) = (metatype, true)
        case .literal, .implicitMember:
            return nil
        }
        let functions = index.members(named: name, of: type, isStatic: isStatic).filter { $0.kind == .function }
        let labels = call.arguments.map { $0.label?.text }
        let fitting = functions.first { function in
            CallMatcher(member: function, shimForm: false, isLegacyTransaction: { _ in false }).match(labels) != nil
        } ?? functions.first
        return fitting.map { result(of: $0, on: type) }
    }

    /// A member's declared result type; `Self` is the type it was reached on.
    private func result(of member: IndexedMember, on type: String) -> ExpressionType {
        let written = member.resultType ?? "Void"
        return SourceIndex.coreTypeName(written) == "Self" ? .instance(type) : instance(ofWritten: written)
    }
}
#endif
