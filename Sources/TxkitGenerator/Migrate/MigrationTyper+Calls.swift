#if Txkit
import SwiftSyntax

/// The type of a call: a method of the sources (its result specialized by
/// the metatype the call passes), GRDB's fetch and request methods, the
/// common collection methods and key paths.
extension MigrationTyper {
    func type(ofCall call: FunctionCallExprSyntax, depth: Int) -> String? {
        let callee = call.calledExpression
        // The bridge a migrated method opens with hands out GRDB's connection.
        if callee.trimmedDescription == "SQLiteDB.shimOnlyBridge" { return "Database" }
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if name.first?.isUppercase == true, isTypeName(name) { return name }
            if let local = LocalScope.declarations(visibleAt: reference)[name], local.writtenType != nil {
                return local.writtenType.flatMap(TypeText.functionResult)
            }
            if let method = symbols.methods[name]?.first { return method.resultType }
            let methods = consumer.allMembers.filter { $0.name == name && $0.kind == .function }
            return methods.first.map { $0.resultType ?? "Void" }
        }
        if callee.is(ArrayExprSyntax.self) || callee.is(DictionaryExprSyntax.self) {
            return callee.trimmedDescription
        }
        if let specialized = callee.as(GenericSpecializationExprSyntax.self) {
            return specialized.trimmedDescription
        }
        guard let member = callee.as(MemberAccessExprSyntax.self) else { return nil }
        let name = member.declName.baseName.text
        guard let base = member.base else { return nil }
        guard let baseType = type(of: base, depth: depth) else { return nil }
        let isOptional = Self.isOptionallyChained(base)
        let result = type(ofMethod: name, call: call, on: TypeText.unwrapped(baseType), depth: depth)
        return isOptional ? result.map(TypeText.optional) : result
    }

    func type(ofMethod name: String, call: FunctionCallExprSyntax, on baseType: String, depth: Int) -> String? {
        if let metatype = TypeText.metatypeInstance(baseType) {
            if name == "init" { return metatype }
            if index.types["\(metatype).\(name)"] != nil { return "\(metatype).\(name)" }
            if let declared = declaredMethod(name, call: call, of: metatype, isStatic: true) { return declared }
            if isRecordOrValue(metatype) {
                if let result = GRDBVocabulary.staticFetchResult(name, of: metatype) { return result }
                if GRDBVocabulary.requestMethods.contains(name) { return Self.requestType(of: metatype) }
            }
            return nil
        }
        if let record = TypeText.requestRecord(baseType) {
            if name == "asRequest", let target = metatypeArgument(call, label: "of") { return Self.requestType(of: target) }
            if name == "select", let target = metatypeArgument(call, label: "as") { return Self.requestType(of: target) }
            if GRDBVocabulary.requestMethods.contains(name) { return baseType }
            return GRDBVocabulary.requestFetchResult(name, of: record)
        }
        if baseType == "Database" || baseType == "GRDB.Database" {
            return GRDBVocabulary.databaseMethods[name]
        }
        if let declared = declaredMethod(name, call: call, of: baseType, isStatic: false) { return declared }
        if isRecord(baseType), let (result, _) = GRDBVocabulary.recordMethodResult(name, of: baseType) {
            return result
        }
        return collectionMethod(name, call: call, on: baseType, depth: depth)
    }

    /// A method the sources declare on `type`, matched by argument labels.
    func declaredMethod(_ name: String, call: FunctionCallExprSyntax, of type: String, isStatic: Bool) -> String? {
        let functions = index.members(named: name, of: type, isStatic: isStatic).filter { $0.kind == .function }
        guard !functions.isEmpty else { return nil }
        var labels: [String?] = call.arguments.map { $0.label?.text }
        if call.trailingClosure != nil { labels.append(nil) }
        let fitting = functions.first { function in
            CallMatcher(member: function, shimForm: false, isLegacyTransaction: { _ in false }).match(labels) != nil
        } ?? functions.first!
        guard let result = specialized(fitting.resultType ?? "Void", of: fitting, call: call) else { return nil }
        return TypeText.replacingSelf(result, with: SourceIndex.coreTypeName(type))
    }

    /// `result` with the method's generic parameters replaced by what the
    /// call passes for them (`as type: T.Type` given `as: String.self`);
    /// `nil` when the call does not say (only the compiler would know).
    func specialized(_ result: String, of method: IndexedMember, call: FunctionCallExprSyntax) -> String? {
        var specialized = result
        for generic in method.genericParameterNames where TypeText.identifiers(in: specialized).contains(generic) {
            let argument = method.parameters.first { $0.type == "\(generic).Type" }.flatMap { parameter in
                call.arguments.first { $0.label?.text == parameter.label }
            }
            guard let member = argument?.expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
                  let base = member.base?.trimmedDescription, !base.isEmpty
            else { return nil }
            specialized = TypeText.replacingIdentifier(generic, with: base, in: specialized)
        }
        return specialized
    }

    func collectionMethod(_ name: String, call: FunctionCallExprSyntax, on baseType: String, depth: Int) -> String? {
        switch name {
        case "lowercased", "uppercased", "trimmingCharacters", "replacingOccurrences", "joined", "capitalized":
            return "String"
        case "contains", "hasPrefix", "hasSuffix", "allSatisfy", "starts", "isSubset", "isSuperset":
            return "Bool"
        default: break
        }
        guard let element = TypeText.elementType(baseType) else { return nil }
        switch name {
        case "enumerated":
            return "EnumeratedSequence<[\(element)]>"
        case "filter", "sorted", "shuffled":
            return baseType.hasPrefix("[") || baseType.hasPrefix("Set<") ? (name == "filter" ? baseType : "[\(element)]") : nil
        case "first", "last", "min", "max", "randomElement":
            return TypeText.optional(element)
        case "map", "compactMap", "flatMap":
            // `{ row -> String in … }`: the closure says what it returns.
            let closure = call.trailingClosure ?? call.arguments.first?.expression.as(ClosureExprSyntax.self)
            if name != "flatMap", let returned = closure?.signature?.returnClause?.type.trimmedDescription {
                return name == "compactMap" ? "[\(TypeText.unwrapped(returned))]" : "[\(returned)]"
            }
            guard let keyPath = call.arguments.first?.expression.as(KeyPathExprSyntax.self) else {
                return nil
            }
            guard let valueType = type(ofKeyPath: keyPath, on: element) else { return nil }
            return name == "compactMap" ? "[\(TypeText.unwrapped(valueType))]" : "[\(valueType)]"
        default:
            return nil
        }
    }

    func type(ofKeyPath keyPath: KeyPathExprSyntax, on root: String) -> String? {
        var current = root
        for component in keyPath.components {
            guard case let .property(property) = component.component,
                  let next = type(ofProperty: property.declName.baseName.text, on: TypeText.unwrapped(current))
            else { return nil }
            current = next
        }
        return current
    }

    func metatypeArgument(_ call: FunctionCallExprSyntax, label: String) -> String? {
        guard let argument = call.arguments.first(where: { $0.label?.text == label }),
              let member = argument.expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
              let base = member.base
        else { return nil }
        return base.trimmedDescription
    }
}
#endif
