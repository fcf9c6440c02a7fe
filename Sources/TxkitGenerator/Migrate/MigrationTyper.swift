#if Txkit
import SwiftSyntax

/// The full written type of a consumer's expressions and names (`Account?`,
/// `[Transfer]`), as `txkit migrate` needs it to declare the parameters
/// and results of the requirements it extracts: what declarations say,
/// GRDB's record and request API (``GRDBVocabulary``), literals and the
/// common collection methods. `nil` when only a compiler would know.
struct MigrationTyper {
    let index: SourceIndex
    let consumer: IndexedType
    /// Types of names that are not locals (a block's legacy transaction).
    var known: [String: String] = [:]
    /// The consumer's own members, private ones included.
    let symbols: ConsumerSymbols

    init(index: SourceIndex, consumer: IndexedType) {
        self.index = index
        self.consumer = consumer
        symbols = ConsumerSymbols(consumer)
    }

    /// A request of the query interface for records of a type.
    static func requestType(of record: String) -> String { "QueryInterfaceRequest<\(record)>" }

    /// The type of `expression`, read where it is.
    func type(of expression: ExprSyntax, depth: Int = 0) -> String? {
        guard depth < 24 else { return nil }
        let next = depth + 1
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return type(ofName: reference.baseName.text, at: Syntax(reference), depth: next)
        }
        if let tried = expression.as(TryExprSyntax.self) {
            guard let inner = type(of: tried.expression, depth: next) else { return nil }
            return tried.questionOrExclamationMark?.text == "?" ? TypeText.optional(inner) : inner
        }
        if let awaited = expression.as(AwaitExprSyntax.self) { return type(of: awaited.expression, depth: next) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) {
            return type(of: forced.expression, depth: next).map(TypeText.unwrapped)
        }
        if let chained = expression.as(OptionalChainingExprSyntax.self) {
            return type(of: chained.expression, depth: next).map(TypeText.unwrapped)
        }
        if let tuple = expression.as(TupleExprSyntax.self) {
            if tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
                return type(of: only.expression, depth: next)
            }
            var elements: [String] = []
            for element in tuple.elements {
                guard let type = type(of: element.expression, depth: next) else { return nil }
                elements.append((element.label.map { $0.text + ": " } ?? "") + type)
            }
            return "(\(elements.joined(separator: ", ")))"
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            guard let first = array.elements.first, let element = type(of: first.expression, depth: next) else { return nil }
            return "[\(TypeText.unwrappedIfLiteral(element))]"
        }
        if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        if expression.is(StringLiteralExprSyntax.self) { return "String" }
        if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self) {
            return prefix.operator.text == "!" ? "Bool" : type(of: prefix.expression, depth: next)
        }
        if let sequence = expression.as(SequenceExprSyntax.self) { return type(ofSequence: sequence, depth: next) }
        if let infix = expression.as(InfixOperatorExprSyntax.self) {
            return type(ofOperator: infix.operator.trimmedDescription, lhs: infix.leftOperand, rhs: infix.rightOperand, depth: next)
        }
        if let ternary = expression.as(TernaryExprSyntax.self) {
            return type(of: ternary.thenExpression, depth: next) ?? type(of: ternary.elseExpression, depth: next)
        }
        if let cast = expression.as(AsExprSyntax.self) {
            let target = cast.type.trimmedDescription
            return cast.questionOrExclamationMark?.text == "?" ? TypeText.optional(target) : target
        }
        if expression.is(IsExprSyntax.self) { return "Bool" }
        if let member = expression.as(MemberAccessExprSyntax.self) { return type(ofMemberAccess: member, depth: next) }
        if let call = expression.as(FunctionCallExprSyntax.self) { return type(ofCall: call, depth: next) }
        if let subscriptCall = expression.as(SubscriptCallExprSyntax.self) {
            guard let base = type(of: subscriptCall.calledExpression, depth: next) else { return nil }
            if let (key, value) = TypeText.dictionaryTypes(base) {
                _ = key
                return TypeText.optional(value)
            }
            return TypeText.elementType(base)
        }
        return nil
    }

    // MARK: Names

    /// The type of a name, read at `node`: a local, parameter or binding of
    /// the code around it, a known name, then the consumer's members.
    func type(ofName name: String, at node: Syntax, depth: Int = 0) -> String? {
        guard depth < 24 else { return nil }
        if let declaration = LocalScope.declarations(visibleAt: node)[name] {
            return type(of: declaration, depth: depth + 1)
        }
        if let known = known[name] { return known }
        switch name {
        case "self": return consumer.name
        case "Self": return "\(consumer.name).Type"
        default: break
        }
        if let property = symbols.properties[name], !property.isStatic {
            if let type = property.type { return type }
            if let initial = initialValue(of: name) { return type(of: initial, depth: depth + 1) }
        }
        if let property = consumer.allMembers.first(where: { $0.name == name && $0.kind != .function }) {
            return property.resultType
        }
        if name.first?.isUppercase == true, isTypeName(name) { return "\(name).Type" }
        return nil
    }

    /// The type of a declared name.
    func type(of declaration: LocalDeclaration, depth: Int = 0) -> String? {
        if let written = declaration.writtenType { return written }
        switch declaration.origin {
        case .local:
            guard let initializer = declaration.initializer else { return nil }
            return type(of: initializer, depth: depth + 1).map(TypeText.unwrappedIfLiteral)
        case let .loopVariable(sequence):
            let element = type(of: sequence, depth: depth + 1).flatMap(TypeText.elementType)
            guard let position = declaration.tupleIndex else { return element }
            return element.flatMap { TypeText.tupleElement(at: position, in: $0) }
        case let .optionalBinding(value):
            if let value { return type(of: value, depth: depth + 1).map(TypeText.unwrapped) }
            return type(ofName: declaration.name, at: Syntax(declaration.node.parent ?? declaration.node), depth: depth + 1)
                .map(TypeText.unwrapped)
        case .caughtError:
            return "any Error"
        case .closureParameter:
            return known[declaration.name] ?? elementParameterType(declaration, depth: depth)
        case .parameter:
            return known[declaration.name]
        }
    }

    /// The type of a closure's parameter when the closure is passed to a
    /// collection's `map`, `filter`, `forEach`… on values of a known type:
    /// an element (both parameters of `sorted(by:)`; the element after the
    /// offset for `enumerated()`'s).
    private func elementParameterType(_ declaration: LocalDeclaration, depth: Int) -> String? {
        guard let closure = declaration.node.ancestor(ClosureExprSyntax.self, below: declaration.node.root) else { return nil }
        let call = closure.parent?.as(FunctionCallExprSyntax.self)
            ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
        if let call, let declared = declaredClosureParameterType(declaration, closure: closure, call: call, depth: depth) {
            return declared
        }
        guard let call, let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
              ["map", "compactMap", "flatMap", "filter", "forEach", "first", "last", "contains", "allSatisfy", "sorted",
               "min", "max", "firstIndex", "lastIndex", "drop", "prefix"].contains(member.declName.baseName.text),
              let baseType = type(of: base, depth: depth + 1), let element = TypeText.elementType(TypeText.unwrapped(baseType))
        else { return nil }
        return element
    }

    /// A closure parameter's type from the declaration of the method the
    /// closure is passed to (`block: (ChatThread, inout Bool) throws -> Void`).
    private func declaredClosureParameterType(
        _ declaration: LocalDeclaration, closure: ClosureExprSyntax, call: FunctionCallExprSyntax, depth: Int
    ) -> String? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
              let baseType = type(of: base, depth: depth + 1)
        else { return nil }
        let name = member.declName.baseName.text
        let metatype = TypeText.metatypeInstance(baseType)
        let functions = index.members(named: name, of: metatype ?? TypeText.unwrapped(baseType), isStatic: metatype != nil)
            .filter { $0.kind == .function }
        let label: String? = call.trailingClosure?.id == closure.id
            ? nil : closure.parent?.as(LabeledExprSyntax.self)?.label?.text
        for function in functions {
            let closures = function.parameters.filter(\.isClosure)
            guard let parameter = label.map({ label in closures.first { $0.label == label } }) ?? closures.last else { continue }
            let written = parameter.type.replacingOccurrences(of: "@escaping", with: "")
                .replacingOccurrences(of: "@Sendable", with: "").trimmingWhitespace
            guard written.hasPrefix("("), let close = TypeText.closingParenthesis(in: written) else { continue }
            let inside = String(written[written.index(after: written.startIndex) ..< close])
            let types = TypeText.topLevelSplit(inside, separator: ",")
            let position = LocalScope.closureParameters(closure).firstIndex { $0.name == declaration.name }
            guard let position, position < types.count else { continue }
            var type = types[position]
            if type.hasPrefix("inout ") { type.removeFirst("inout ".count) }
            return type
        }
        return nil
    }

    /// Whether `name` names a type: of the sources, of the standard
    /// library's common ones, or of GRDB.
    func isTypeName(_ name: String) -> Bool {
        index.types[name] != nil || GRDBVocabulary.fetchableValueTypes.contains(name)
            || GRDBVocabulary.typeNames.contains(name)
            || ["Array", "Dictionary", "Set", "Optional", "Result", "Character"].contains(name)
    }

    /// The initial value of a stored property of the consumer.
    private func initialValue(of property: String) -> ExprSyntax? {
        for declaration in consumer.declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings where binding.pattern.trimmedDescription == property {
                    return binding.initializer?.value
                }
            }
        }
        return nil
    }

    // MARK: Members

    private func type(ofMemberAccess member: MemberAccessExprSyntax, depth: Int) -> String? {
        let name = member.declName.baseName.text
        guard let base = member.base else { return nil }
        guard let baseType = type(of: base, depth: depth) else { return nil }
        let result = type(ofProperty: name, on: TypeText.unwrapped(baseType))
        return Self.isOptionallyChained(base) ? result.map(TypeText.optional) : result
    }

    /// Whether a postfix chain ends in an optional chaining (`a?`,
    /// `Item.fetchOne(db, key: 2)?.owner`): a member read on it is optional.
    static func isOptionallyChained(_ expression: ExprSyntax) -> Bool {
        var current = expression
        while true {
            if current.is(OptionalChainingExprSyntax.self) { return true }
            if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
                current = base
            } else if let call = current.as(FunctionCallExprSyntax.self) {
                current = call.calledExpression
            } else if let subscripted = current.as(SubscriptCallExprSyntax.self) {
                current = subscripted.calledExpression
            } else if let forced = current.as(ForceUnwrapExprSyntax.self) {
                current = forced.expression
            } else {
                return false
            }
        }
    }

    /// A property's type on a value (or, for `T.Type`, a static one).
    func type(ofProperty name: String, on baseType: String) -> String? {
        if SourceIndex.coreTypeName(baseType) == consumer.name, let property = symbols.properties[name], !property.isStatic {
            if let type = property.type { return type }
            if let initial = initialValue(of: name) { return type(of: initial) }
        }
        if let metatype = TypeText.metatypeInstance(baseType) {
            if index.types["\(metatype).\(name)"] != nil { return "\(metatype).\(name).Type" }
            if index.types[metatype]?.enumCases.contains(name) == true { return metatype }
            return declaredProperty(name, of: metatype, isStatic: true)
        }
        if baseType == "Database" || baseType == "GRDB.Database" {
            return GRDBVocabulary.databaseProperties[name]
        }
        if let element = TypeText.elementType(baseType), !baseType.hasPrefix("(") {
            switch name {
            case "count": return "Int"
            case "isEmpty": return "Bool"
            case "first", "last": return TypeText.optional(element)
            default: break
            }
        }
        switch name {
        case "description", "debugDescription": return "String"
        default: break
        }
        if let tupleElement = TypeText.tupleElement(named: name, in: baseType) { return tupleElement }
        return declaredProperty(name, of: baseType, isStatic: false)
    }

    private func declaredProperty(_ name: String, of type: String, isStatic: Bool) -> String? {
        let members = index.members(named: name, of: type, isStatic: isStatic).filter { $0.kind != .function }
        if let property = members.first, let result = property.resultType {
            return TypeText.replacingSelf(result, with: SourceIndex.coreTypeName(type))
        }
        // `static let shared = AppDatabase()`: the type of its initial value.
        guard let indexed = index.types[SourceIndex.coreTypeName(type)] else { return nil }
        for declaration in indexed.declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self),
                      variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) == isStatic
                else { continue }
                for binding in variable.bindings where binding.pattern.trimmedDescription == name {
                    if let written = binding.typeAnnotation?.type.trimmedDescription { return written }
                    if let value = binding.initializer?.value {
                        let inner = value.as(TryExprSyntax.self)?.expression ?? value
                        if let call = inner.as(FunctionCallExprSyntax.self),
                           let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), isTypeName(callee.baseName.text) {
                            return callee.baseName.text
                        }
                        return self.type(of: value)
                    }
                }
            }
        }
        return nil
    }

    // MARK: Operators

    private func type(ofSequence sequence: SequenceExprSyntax, depth: Int) -> String? {
        let elements = Array(sequence.elements)
        let operators = elements.compactMap { $0.as(BinaryOperatorExprSyntax.self)?.operator.text }
        if elements.contains(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
           let ternary = elements.first(where: { $0.is(UnresolvedTernaryExprSyntax.self) })?.as(UnresolvedTernaryExprSyntax.self) {
            return type(of: ternary.thenExpression, depth: depth)
        }
        if let cast = elements.firstIndex(where: { $0.is(UnresolvedAsExprSyntax.self) }), cast + 1 < elements.count,
           let target = elements[cast + 1].as(TypeExprSyntax.self) {
            let mark = elements[cast].as(UnresolvedAsExprSyntax.self)?.questionOrExclamationMark?.text
            return mark == "?" ? TypeText.optional(target.type.trimmedDescription) : target.type.trimmedDescription
        }
        if operators.contains(where: { ["==", "!=", "<", ">", "<=", ">=", "&&", "||", "===", "!=="].contains($0) }) {
            return "Bool"
        }
        if operators.contains("??"), let last = elements.last {
            if let right = type(of: last, depth: depth) { return right }
            return elements.first.flatMap { type(of: $0, depth: depth) }.map(TypeText.unwrapped)
        }
        guard let first = elements.first else { return nil }
        return type(of: first, depth: depth)
    }

    private func type(ofOperator op: String, lhs: ExprSyntax, rhs: ExprSyntax, depth: Int) -> String? {
        if ["==", "!=", "<", ">", "<=", ">=", "&&", "||"].contains(op) { return "Bool" }
        if op == "??" { return type(of: rhs, depth: depth) ?? type(of: lhs, depth: depth).map(TypeText.unwrapped) }
        return type(of: lhs, depth: depth)
    }

    // MARK: Records

    /// Whether `type` is a record of the sources (it adopts a GRDB record
    /// protocol in its declaration or an extension).
    func isRecord(_ type: String) -> Bool {
        guard let indexed = index.types[SourceIndex.coreTypeName(type)] else { return false }
        return indexed.inherited.contains { GRDBVocabulary.recordProtocols.contains(SourceIndex.coreTypeName($0)) }
    }

    func isRecordOrValue(_ type: String) -> Bool {
        isRecord(type) || GRDBVocabulary.fetchableValueTypes.contains(type) || type == "Row"
    }
}
#endif
