#if Txkit
import SwiftSyntax

/// What a conforming type must declare to adopt a protocol of the sources:
/// its own requirements and those of every protocol it inherits from
/// (declared in any file), its associated types, and what it demands of the
/// conforming type (an actor, a global actor, `Sendable`). `txkit mock`
/// reads it.
package struct ProtocolRequirements {
    /// One requirement, as declared.
    package struct Requirement {
        package enum Kind: Equatable {
            case method
            case property(isSettable: Bool)
            case `subscript`(isSettable: Bool)
            /// `init?` when `isFailable`.
            case initializer(isFailable: Bool)
        }

        package var kind: Kind
        /// The name as written (backticks included); `subscript`, `init`.
        package var name: String
        package var isStatic: Bool
        /// `<T: Hashable>`, or empty.
        package var genericParameters: String
        /// `where T: Sendable`, or empty.
        package var whereClause: String
        package var parameters: [IndexedParameter]
        /// For a property or subscript: its getter's effects.
        package var isAsync: Bool
        /// `throws`, `throws(E)`, `rethrows`, or `nil`.
        package var throwsClause: String?
        /// `nil` for `Void`.
        package var resultType: String?
        /// Attributes kept on the mock's member (`@discardableResult`,
        /// `@available`, global actors).
        package var attributes: [String]
        package var location: SourceLocation
        /// The protocol that declares it.
        package var owner: String
        /// `nonisolated`: reached outside the actor (or global actor) that
        /// isolates the conforming type.
        package var isNonisolated = false

        /// The name without backticks.
        package var bareName: String {
            name.replacingOccurrences(of: "`", with: "")
        }

        /// Labels, parameter types, `async`, `where` clause and result,
        /// static or not: two protocols that declare the same requirement
        /// give the mock one member, and overloads that differ only by
        /// `async` or by their `where` clause stay two. `throws` is not in
        /// it: Swift does not overload on it.
        var key: String {
            let parameters = parameters.map { "\($0.label ?? "_"):\($0.declaredType)" }.joined(separator: ",")
            return "\(isStatic ? "static " : "")\(kind)\(bareName)\(genericParameters)(\(parameters))"
                + "\(isAsync ? " async" : "")->\(resultType ?? "") \(whereClause)"
        }
    }

    /// `associatedtype Name: Constraint = Default where …`.
    package struct AssociatedType {
        package var name: String
        /// `Sequence`, `AnyObject & Sendable`, or `nil`.
        package var constraint: String?
        package var defaultType: String?
        /// The `where` clause's requirements, `Self.` dropped.
        package var requirements: [String]
    }

    /// The protocol's name as generated code spells it (`Outer.Inner`).
    package var name: String
    package var location: SourceLocation
    package var requirements: [Requirement] = []
    package var associatedTypes: [AssociatedType] = []
    /// `@MainActor`, or another global actor, from the protocol or a parent.
    package var globalActor: String?
    /// Whether a conforming type must be an actor (`: Actor`).
    package var requiresActor = false
    /// Whether a conforming type must be `Sendable`.
    package var requiresSendable = false
    /// Whether a conforming type must be an `NSObject` (`NSObjectProtocol`).
    package var requiresNSObject = false
    /// Parents that are not in the sources and that txkit does not know,
    /// with where they are named: their requirements cannot be read.
    package var unknownParents: [(name: String, location: SourceLocation)] = []
    /// Standard-library protocols it inherits that a mock implements by
    /// itself (see ``standardParents``), in the order met.
    package var standardParents: [String] = []
    /// Whether the protocol is `@objc`.
    package var isObjC = false
    /// The modules the files that declare it and its parents import.
    package var imports: [String] = []

    /// Protocols of the standard library a mock adopts with nothing to
    /// implement.
    /// Standard-library protocols a mock implements by identity:
    /// `Equatable` and `Hashable` (the same instance), `Identifiable` (its
    /// `ObjectIdentifier`); `CustomStringConvertible` and
    /// `CustomDebugStringConvertible` get a stubbed property.
    static let standardParents: Set<String> = [
        "Equatable", "Hashable", "Identifiable", "CustomStringConvertible", "CustomDebugStringConvertible",
    ]

    /// Parents that require nothing a mock writes (`Any`, which GRDB's
    /// `GRDBSendableMetatype` names on older compilers, and
    /// `SendableMetatype`, which every mock's metatype is), or that the
    /// mock's declaration answers (`Sendable`, `Actor`, `NSObjectProtocol`).
    static let markerParents: Set<String> = [
        "Any", "AnyObject", "class", "Sendable", "SendableMetatype", "Actor", "AnyActor", "NSObjectProtocol",
    ]

    /// Reads `type`, a protocol, and the protocols it inherits from.
    package init(_ type: IndexedType, index: SourceIndex) {
        name = type.qualifiedName
        let own = type.declarations.first { !$0.isExtension }
        location = own.map { $0.file.sourceLocation(of: $0.memberBlock.parent ?? Syntax($0.memberBlock)) }
            ?? SourceLocation(path: type.files.first ?? name, line: 0)
        var seen: Set<String> = []
        var keys: Set<String> = []
        read(type, index: index, seen: &seen, keys: &keys)
        for (parent, property) in [("CustomStringConvertible", "description"), ("CustomDebugStringConvertible", "debugDescription")]
        where standardParents.contains(parent) {
            add(Requirement(
                kind: .property(isSettable: false), name: property, isStatic: false, genericParameters: "",
                whereClause: "", parameters: [], isAsync: false, throwsClause: nil, resultType: "String",
                attributes: [], location: location, owner: parent), keys: &keys)
        }
    }

    private mutating func read(_ type: IndexedType, index: SourceIndex, seen: inout Set<String>, keys: inout Set<String>) {
        guard seen.insert(type.qualifiedName).inserted else { return }
        for module in type.imports where !imports.contains(module) { imports.append(module) }
        for declaration in type.declarations where !declaration.isExtension {
            let file = declaration.file
            if let decl = declaration.memberBlock.parent?.as(ProtocolDeclSyntax.self) {
                for attribute in decl.attributes {
                    guard let attribute = attribute.as(AttributeSyntax.self) else { continue }
                    let attributeName = attribute.attributeName.trimmedText
                    if attributeName.hasSuffix("Actor"), globalActor == nil { globalActor = "@" + attributeName }
                    if attributeName == "objc" { isObjC = true }
                }
            }
            for item in declaration.memberBlock.members {
                read(item.decl, file: file, owner: type.qualifiedName, keys: &keys)
            }
            for inherited in declaration.inherited {
                for part in Self.composedParents(inherited, index: index) {
                    let parent = SourceIndex.coreTypeName(part)
                    let bare = parent.firstIndex(of: "<").map { String(parent[..<$0]) } ?? parent
                    switch bare {
                    case "Sendable": requiresSendable = true
                    case "Actor", "AnyActor": requiresActor = true
                    case "NSObjectProtocol": requiresNSObject = true
                    case _ where Self.markerParents.contains(bare): break
                    case _ where Self.standardParents.contains(bare):
                        if !standardParents.contains(bare) { standardParents.append(bare) }
                    default:
                        if let parentType = index.types[bare], parentType.kind == .protocol {
                            read(parentType, index: index, seen: &seen, keys: &keys)
                        } else {
                            unknownParents.append((bare, declaration.location))
                        }
                    }
                }
            }
        }
    }

    /// The protocols an inheritance clause's entry stands for: the parts of
    /// a composition (`A & B`), with each type alias of the sources
    /// replaced by what it names (`typealias JSONCodable = JSONEncodable &
    /// JSONDecodable` stands for both protocols, whose requirements the
    /// mock implements).
    static func composedParents(_ inherited: String, index: SourceIndex) -> [String] {
        var parents: [String] = []
        var seen: Set<String> = []
        func expand(_ text: String) {
            for part in text.split(separator: "&").map({ String($0).trimmingWhitespace }) {
                let name = SourceIndex.coreTypeName(part)
                if index.types[name] == nil, let alias = index.typealiases[name], seen.insert(name).inserted {
                    expand(alias.type)
                } else {
                    parents.append(part)
                }
            }
        }
        expand(inherited)
        return parents
    }

    private mutating func read(_ decl: DeclSyntax, file: SourceFile, owner: String, keys: inout Set<String>) {
        var found: Requirement?
        if let clauses = decl.as(IfConfigDeclSyntax.self)?.clauses {
            // The first clause: a mock cannot declare a member twice.
            if case let .decls(items)? = clauses.first?.elements {
                for item in items { read(item.decl, file: file, owner: owner, keys: &keys) }
            }
            return
        } else if let function = decl.as(FunctionDeclSyntax.self) {
            let signature = function.signature
            found = Requirement(
                kind: .method, name: function.name.text, isStatic: Self.isStatic(function.modifiers),
                genericParameters: function.genericParameterClause?.trimmedText ?? "",
                whereClause: function.genericWhereClause?.trimmedText ?? "",
                parameters: Self.parameters(signature.parameterClause.parameters, isSubscript: false),
                isAsync: signature.effectSpecifiers?.asyncSpecifier != nil,
                throwsClause: signature.effectSpecifiers?.throwsClause?.trimmedText,
                resultType: signature.returnClause.map { Self.oneLine($0.type) }.flatMap { $0 == "Void" || $0 == "()" ? nil : $0 },
                attributes: MemberReader.keptAttributes(function.attributes),
                location: file.sourceLocation(of: function.name), owner: owner,
                isNonisolated: Self.isNonisolated(function.modifiers))
        } else if let variable = decl.as(VariableDeclSyntax.self) {
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let type = binding.typeAnnotation?.type else { continue }
                var isSettable = false
                var isAsync = false
                var throwsClause: String?
                if case let .accessors(accessors)? = binding.accessorBlock?.accessors {
                    for accessor in accessors {
                        if accessor.accessorSpecifier.tokenKind == .keyword(.set) { isSettable = true }
                        if accessor.accessorSpecifier.tokenKind == .keyword(.get) {
                            isAsync = accessor.effectSpecifiers?.asyncSpecifier != nil
                            throwsClause = accessor.effectSpecifiers?.throwsClause?.trimmedText
                        }
                    }
                }
                add(Requirement(
                    kind: .property(isSettable: isSettable), name: name, isStatic: Self.isStatic(variable.modifiers),
                    genericParameters: "", whereClause: "", parameters: [], isAsync: isAsync,
                    throwsClause: throwsClause, resultType: Self.oneLine(type),
                    attributes: MemberReader.keptAttributes(variable.attributes),
                    location: file.sourceLocation(of: binding.pattern), owner: owner,
                    isNonisolated: Self.isNonisolated(variable.modifiers)), keys: &keys)
            }
            return
        } else if let subscriptDecl = decl.as(SubscriptDeclSyntax.self) {
            var isSettable = false
            var isAsync = false
            var throwsClause: String?
            if case let .accessors(accessors)? = subscriptDecl.accessorBlock?.accessors {
                for accessor in accessors {
                    if accessor.accessorSpecifier.tokenKind == .keyword(.set) { isSettable = true }
                    if accessor.accessorSpecifier.tokenKind == .keyword(.get) {
                        isAsync = accessor.effectSpecifiers?.asyncSpecifier != nil
                        throwsClause = accessor.effectSpecifiers?.throwsClause?.trimmedText
                    }
                }
            }
            found = Requirement(
                kind: .subscript(isSettable: isSettable), name: "subscript",
                isStatic: Self.isStatic(subscriptDecl.modifiers),
                genericParameters: subscriptDecl.genericParameterClause?.trimmedText ?? "",
                whereClause: subscriptDecl.genericWhereClause?.trimmedText ?? "",
                parameters: Self.parameters(subscriptDecl.parameterClause.parameters, isSubscript: true),
                isAsync: isAsync, throwsClause: throwsClause,
                resultType: Self.oneLine(subscriptDecl.returnClause.type),
                attributes: MemberReader.keptAttributes(subscriptDecl.attributes),
                location: file.sourceLocation(of: subscriptDecl.subscriptKeyword), owner: owner,
                isNonisolated: Self.isNonisolated(subscriptDecl.modifiers))
        } else if let initializer = decl.as(InitializerDeclSyntax.self) {
            let signature = initializer.signature
            found = Requirement(
                kind: .initializer(isFailable: initializer.optionalMark != nil), name: "init", isStatic: false,
                genericParameters: initializer.genericParameterClause?.trimmedText ?? "",
                whereClause: initializer.genericWhereClause?.trimmedText ?? "",
                parameters: Self.parameters(signature.parameterClause.parameters, isSubscript: false),
                isAsync: signature.effectSpecifiers?.asyncSpecifier != nil,
                throwsClause: signature.effectSpecifiers?.throwsClause?.trimmedText, resultType: nil,
                attributes: MemberReader.keptAttributes(initializer.attributes),
                location: file.sourceLocation(of: initializer.initKeyword), owner: owner)
        } else if let associated = decl.as(AssociatedTypeDeclSyntax.self) {
            let name = associated.name.text
            guard !associatedTypes.contains(where: { $0.name == name }) else { return }
            let requirements = associated.genericWhereClause?.requirements.map { requirement in
                requirement.requirement.trimmedText.replacingOccurrences(of: "Self.", with: "")
            } ?? []
            associatedTypes.append(AssociatedType(
                name: name,
                constraint: associated.inheritanceClause.map { clause in
                    clause.inheritedTypes.map { $0.type.trimmedText }.joined(separator: " & ")
                },
                defaultType: associated.initializer?.value.trimmedText,
                requirements: requirements))
            return
        }
        if let found { add(found, keys: &keys) }
    }

    private mutating func add(_ requirement: Requirement, keys: inout Set<String>) {
        if keys.insert(requirement.key).inserted {
            requirements.append(requirement)
        } else if requirement.throwsClause == nil,
                  let index = requirements.firstIndex(where: { $0.key == requirement.key && $0.throwsClause != nil }) {
            // A member that does not throw implements both declarations.
            requirements[index] = requirement
        }
    }

    private static func isNonisolated(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) }
    }

    private static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    /// A type written over several lines, on one line.
    static func oneLine(_ type: TypeSyntax) -> String {
        oneLine(type.trimmedText)
    }

    static func oneLine(_ text: String) -> String {
        guard text.contains("\n") else { return text }
        var result = ""
        var lastWasSpace = false
        for character in text {
            if character.isWhitespace || character.isNewline {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
            } else {
                result.append(character)
                lastWasSpace = false
            }
        }
        return result.replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
            .replacingOccurrences(of: "< ", with: "<").replacingOccurrences(of: " >", with: ">")
            .replacingOccurrences(of: " :", with: ":").replacingOccurrences(of: " ,", with: ",")
    }

    private static func parameters(_ list: FunctionParameterListSyntax, isSubscript: Bool) -> [IndexedParameter] {
        list.enumerated().map { offset, parameter in
            var type = oneLine(parameter.type)
            var isInout = false
            if type.hasPrefix("inout ") {
                isInout = true
                type = String(type.dropFirst("inout ".count))
            }
            let first = parameter.firstName.text
            let second = parameter.secondName?.text
            // `_` with no name (`func empty(_: String)`) gets one, so that
            // the mock can pass the value on.
            var name = second ?? first
            if name == "_" { name = "arg\(offset)" }
            // A subscript's single name is not a label.
            let label: String? = first == "_" || (isSubscript && second == nil) ? nil : first
            return IndexedParameter(
                label: label, name: name, type: type, isInout: isInout, isVariadic: parameter.ellipsis != nil,
                defaultValue: parameter.defaultValue?.value.trimmedText, shape: TypeShape(parameter.type))
        }
    }
}
#endif
