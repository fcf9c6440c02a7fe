#if Txkit
/// Whether an argument whose type the source states can be passed to a
/// parameter, to tell overloads apart without a type checker.
///
/// It answers "no" only when it knows: both types are standard library
/// value types or types of the sources, unrelated by inheritance; a
/// literal that cannot build the parameter's type; an enum case the
/// parameter's type does not declare. Anything else (a generic parameter,
/// a protocol from another module, a collection) fits.
enum ArgumentFit {
    static let integers: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    ]
    static let floats: Set<String> = ["Double", "Float", "CGFloat", "Float80", "Float16", "TimeInterval"]
    static let strings: Set<String> = ["String", "Substring", "Character", "StaticString", "Unicode.Scalar"]
    /// Standard types whose values no other named type converts to.
    static let standard: Set<String> = integers.union(floats).union(strings)
        .union(["Bool", "Date", "UUID", "URL", "Data", "Decimal"])

    static func fits(
        _ argument: ExpressionType, _ parameter: IndexedParameter, of member: IndexedMember, index: SourceIndex?
    ) -> Bool {
        let written = parameter.type
        let type = SourceIndex.coreTypeName(written)
        let isOptional = written.hasSuffix("?") || written.hasSuffix("!")
        if member.genericParameterNames.contains(type) || type.contains("<" as Character)
            || type.contains("[" as Character) || type.containsBytes("->") || type.contains("&" as Character)
            || type.hasPrefix("some ") || type.hasPrefix("any ") {
            return true
        }
        let resolved = index?.resolvedTypeName(type) ?? type
        let isKnown = standard.contains(resolved) || index?.types[resolved] != nil
        switch argument {
        case let .literal(literal):
            switch literal {
            case .nil: return isOptional
            case .integer: return integers.contains(resolved) || floats.contains(resolved) || !isKnown
            case .float: return floats.contains(resolved) || !isKnown
            case .string: return strings.contains(resolved) || !isKnown
            case .boolean: return resolved == "Bool" || !isKnown
            }
        case let .implicitMember(name):
            guard let declared = index?.types[resolved] else { return true }
            return declared.enumCases.contains(name) || declared.allMembers.contains { $0.name == name && $0.isStatic }
        case let .instance(argumentType):
            if argumentType == resolved { return true }
            guard isKnown, standard.contains(argumentType) || index?.types[argumentType] != nil else { return true }
            return supertypes(of: argumentType, index: index).contains(resolved)
        case .metatype:
            return true
        }
    }

    /// The superclasses and protocols of a type of the sources, transitively.
    static func supertypes(of type: String, index: SourceIndex?) -> Set<String> {
        guard let index else { return [] }
        var found: Set<String> = []
        var queue = [type]
        while let next = queue.popLast() {
            for parent in index.types[next]?.inherited ?? [] {
                let name = index.resolvedTypeName(parent)
                if found.insert(name).inserted { queue.append(name) }
            }
        }
        return found
    }
}
#endif
