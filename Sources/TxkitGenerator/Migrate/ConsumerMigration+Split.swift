#if Txkit
import Foundation
import SwiftSyntax

/// The initializer split in two: the consumer's own takes `db: any DB`,
/// its finders' shims and its `Database` shim; the one callers used keeps
/// its signature in the production file and builds those from what it
/// receives.
extension ConsumerMigration {
    /// The right side of an assignment, as written.
    struct AssignedValue {
        var elements: [ExprSyntax]
        var trimmedDescription: String {
            guard let first = elements.first, let last = elements.last else { return "" }
            let text = first.root.description.utf8
            let start = text.index(text.startIndex, offsetBy: first.positionAfterSkippingLeadingTrivia.utf8Offset)
            let end = text.index(text.startIndex, offsetBy: last.endPositionBeforeTrailingTrivia.utf8Offset)
            return String(decoding: Array(text[start ..< end]), as: UTF8.self)
        }
    }

    /// One statement of the original initializer, as the migrated one
    /// keeps it.
    private enum Statement {
        case kept(String)
        /// `self.x = x`, `x` now a parameter of the migrated initializer,
        /// and the value the production initializer passes for it.
        case parameter(name: String, type: String, value: String)
        case database(value: String)
        case removed
    }

    /// Whether the consumer needs a migrated initializer: it takes the
    /// database, shims or collaborators.
    func needsInitializer(root: HandleRoot?) -> Bool {
        root != nil || !context.finderProperties.isEmpty || !context.requirements.isEmpty
            || !context.collaboratorProperties.isEmpty
    }

    /// `replaced`: the handle properties, now the database; `removed`: the
    /// properties that go with the parameters that set them.
    mutating func splitInitializers(replaced: Set<String>, removed: Set<String>, root: HandleRoot?, adopted: String) -> [String] {
        let initializers = context.consumer.declarations.filter { $0.file.generatedBy == nil }.flatMap { declaration in
            declaration.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }.map { ($0, declaration.file) }
        }
        var assigned = initializers.filter { initializer, _ in
            !assignments(in: initializer).isEmpty && !isDelegating(initializer)
        }
        if assigned.isEmpty {
            assigned = initializers.filter { !isDelegating($0.0) }
        }
        guard needsInitializer(root: root) else { return [] }
        guard assigned.count <= 1 else {
            refuse(assigned[1].0, in: assigned[1].1,
                   "\(context.consumer.name) has more than one initializer that sets its properties",
                   fix: "make the others call one of them (`self.init(…)`), then run migrate again")
            return []
        }
        guard let (initializer, file) = assigned.first else {
            refuse(Refusal(.cannotMigrate, at: location(of: context.consumer),
                "\(context.consumer.name) has no initializer of its own that sets its database",
                fix: "write the initializer (Swift's memberwise one cannot take a shim), then run migrate again"))
            return []
        }
        let parameters = Array(initializer.signature.parameterClause.parameters)
        let droppedParameters = Set(parameters.filter { parameter in
            let type = SourceIndex.coreTypeName(parameter.type.trimmedDescription)
            return GRDBVocabulary.handleTypes[type] != nil || isHolder(type) || isLegacyTransaction(type)
                || context.finderProperties.values.contains { $0.legacyType == type }
        }.map { ($0.secondName ?? $0.firstName).text })

        // The statements, with what each becomes.
        var statements: [Statement] = []
        var databaseSet = false
        var removedParameters: Set<String> = []
        let rootText = root.map { self.rootValue(of: $0, in: initializer) }
        for item in initializer.body?.statements ?? [] {
            guard let (property, value) = assignment(item) else {
                if references(item, anyOf: droppedParameters) {
                    refuse(item, in: file, "the initializer uses the database before the migrated consumer can (`\(item.trimmedDescription)`)",
                           fix: "move that code out of the initializer, then run migrate again")
                }
                statements.append(.kept(item.trimmedDescription))
                continue
            }
            if removed.contains(property) {
                statements.append(.removed)
                removedParameters.insert(value.trimmedDescription)
                continue
            }
            if replaced.contains(property) {
                if !databaseSet, let rootText {
                    statements.append(.database(value: adopted.replacingOccurrences(of: "$handle", with: rootText)))
                    databaseSet = true
                } else {
                    statements.append(.removed)
                }
                continue
            }
            if let finder = context.finderProperties[property] {
                statements.append(.parameter(
                    name: property, type: finder.shimType, value: productionValue(of: finder, assigned: value, in: initializer)))
                continue
            }
            if value.elements.contains(where: { references($0, anyOf: droppedParameters) }), let type = propertyType(property) {
                statements.append(.parameter(name: property, type: type, value: value.trimmedDescription))
                continue
            }
            statements.append(.kept(item.trimmedDescription))
        }
        if !databaseSet, let rootText {
            statements.insert(.database(value: adopted.replacingOccurrences(of: "$handle", with: rootText)), at: 0)
        }
        // Finders that had an initial value: built by the production
        // initializer from what it receives.
        let parameterNames = Set(parameters.map { ($0.secondName ?? $0.firstName).text })
        let initialValues = initializedFinders.compactMap { name, value in
            context.finderProperties[name].map { finder in
                (name, value, type: finder.shimType, production: wrapper(for: finder, around: value))
            }
        } + context.collaboratorProperties.map { name, collaborator in
            (name, collaborator.value, type: collaborator.type, production: collaborator.value)
        }
        for (name, value, type, production) in initialValues.sorted(by: { $0.0 < $1.0 }) {
            let used = Set(TypeText.identifiers(in: value)).filter { identifier in storedProperties().contains { $0.0 == identifier } }
            if let missing = used.first(where: { !parameterNames.contains($0) }) {
                refuse(initializer, in: file, "the initial value of `\(name)` reads `\(missing)`, which the initializer does not receive",
                       fix: "build `\(name)` in the initializer, then run migrate again")
                continue
            }
            statements.append(.parameter(name: name, type: type, value: production))
        }

        // The migrated initializer.
        let newParameters = statements.compactMap { statement -> (String, String)? in
            if case let .parameter(name, type, _) = statement { return (name, type) }
            return nil
        }
        let newNames = Set(newParameters.map(\.0))
        let body = statements.compactMap { statement -> String? in
            switch statement {
            case let .kept(text): text
            case let .parameter(name, _, _):
                if case let .weak(reference)? = context.finderProperties[name]?.holding {
                    "self.\(reference) = \(weakReferenceType(of: context.finderProperties[name]!))(\(name))"
                } else {
                    "self.\(name) = \(name)"
                }
            case .database: "self.\(databaseProperty) = \(databaseProperty)"
            case .removed: nil
            }
        } + (context.requirements.isEmpty ? [] : ["self.\(context.shimProperty) = \(context.shimProperty)"])
        let bodyText = body.joined(separator: "\n")
        var declared: [String] = root == nil ? [] : ["\(databaseProperty): any DB"]
        var passed: [String] = []
        for statement in statements {
            if case let .database(value) = statement { passed.append("\(databaseProperty): \(value)") }
        }
        for parameter in parameters {
            let name = (parameter.secondName ?? parameter.firstName).text
            guard !droppedParameters.contains(name), !removedParameters.contains(name), !newNames.contains(name), bodyText.contains(name)
            else { continue }
            declared.append(parameter.trimmedDescription.trimmingCharacters(in: CharacterSet(charactersIn: ",")).trimmingWhitespace)
            passed.append((parameter.firstName.text == "_" ? "" : parameter.firstName.text + ": ") + name)
        }
        for (name, type) in newParameters {
            declared.append("\(name): \(type)")
        }
        for statement in statements {
            if case let .parameter(name, _, value) = statement { passed.append("\(name): \(value)") }
        }
        if let holder = context.requirements.compactMap(\.holder).first {
            // The wrapper calls the holder: production passes it.
            declared.append("\(context.shimProperty): any Shims.Database")
            passed.append("\(context.shimProperty): \(context.consumer.name).Wrappers.Database(\(SwiftText.lowercasedFirst(holder)): \(rootText ?? ""))")
        } else if !context.requirements.isEmpty {
            declared.append("\(context.shimProperty): any Shims.Database = Wrappers.Database()")
        }
        // The migrated initializer still takes what callers pass (it only
        // added defaulted shims): they need nothing else.
        let original = parameters.map { $0.trimmedDescription.trimmingCharacters(in: CharacterSet(charactersIn: ",")).trimmingWhitespace }
        let keepsCallers = Array(declared.prefix(original.count)) == original
            && declared.dropFirst(original.count).allSatisfy { $0.contains(" = ") }
        // Otherwise the production initializer keeps the callers' signature.
        // If a call such as `C()` would match both, the migrated one's shim
        // parameter loses its default, and production passes the wrapper.
        if !keepsCallers, Self.callsCanMatchBoth(original, declared),
           let shim = declared.firstIndex(of: "\(context.shimProperty): any Shims.Database = Wrappers.Database()") {
            declared[shim] = "\(context.shimProperty): any Shims.Database"
            passed.append("\(context.shimProperty): \(context.consumer.name).Wrappers.Database()")
        }
        let indent = indentation(of: initializer, in: file)
        let attributes = initializer.attributes.trimmedDescription
        let modifiers = initializer.modifiers.filter { $0.name.text != "convenience" && $0.name.text != "required" && $0.name.text != "override" }
        let access = migratedAccess(initializer.modifiers)
        let otherModifiers = modifiers.filter { AccessLevel(rawValue: $0.name.text) == nil }.map { $0.trimmedDescription + " " }.joined()
        let effects = initializer.signature.effectSpecifiers.map { " " + $0.trimmedDescription } ?? ""
        var text = (attributes.isEmpty ? "" : attributes + "\n" + indent) + access + otherModifiers + "init("
        text += declared.joined(separator: ", ") + ")" + effects + " {\n"
        text += body.map { indent + "    " + $0 }.joined(separator: "\n") + "\n" + indent + "}"
        edit(file, TextEdit(
            start: initializer.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: initializer.endPositionBeforeTrailingTrivia.utf8Offset, replacement: text))

        if keepsCallers { return [] }
        // The production initializer, with the signature callers use.
        let isClass = context.consumer.kind == .class
        let signature = dedented(String(initializer.trimmedDescription.prefix { $0 != "{" }).trimmingWhitespace, by: indent.count)
        let tries = (initializer.signature.effectSpecifiers?.throwsClause != nil) ? "try " : ""
        var production = signature
        if isClass, !initializer.modifiers.contains(where: { $0.name.text == "convenience" }) {
            production = insertConvenience(into: production, modifiers: initializer.modifiers)
        }
        let call = "\(tries)self.init(\(passed.joined(separator: ", ")))".replacingOccurrences(of: "\n", with: "\n    ")
        production += " {\n    \(call)\n}"
        return [production]
    }

    /// Whether one call could match two initializers, given as their
    /// parameters' text (`label name: Type = default`): each one's required
    /// labels are among the other's labels.
    static func callsCanMatchBoth(_ first: [String], _ second: [String]) -> Bool {
        let label = { (parameter: String) in String(parameter.prefix { $0 != " " && $0 != ":" }) }
        let required = { (parameters: [String]) in parameters.filter { !$0.contains(" = ") }.map(label) }
        return Set(required(first)).isSubset(of: second.map(label)) && Set(required(second)).isSubset(of: first.map(label))
    }

    /// `text` with its lines after the first moved `count` columns left.
    func dedented(_ text: String, by count: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            guard index > 0 else { return String(line) }
            var rest = Substring(line)
            var dropped = 0
            while dropped < count, rest.first == " " {
                rest = rest.dropFirst()
                dropped += 1
            }
            return String(rest)
        }.joined(separator: "\n")
    }

    /// The initializer's assignments to stored properties.
    func assignments(in initializer: InitializerDeclSyntax) -> [(String, AssignedValue)] {
        (initializer.body?.statements ?? []).compactMap(assignment)
    }

    private func isDelegating(_ initializer: InitializerDeclSyntax) -> Bool {
        initializer.body?.statements.contains { $0.trimmedDescription.hasPrefix("self.init(") } ?? false
    }

    /// `self.x = value` or `x = value`: the property, and the value's
    /// elements (`a ?? b` is three).
    private func assignment(_ item: CodeBlockItemSyntax) -> (String, AssignedValue)? {
        guard let sequence = item.item.as(SequenceExprSyntax.self), sequence.elements.count >= 3 else { return nil }
        let elements = Array(sequence.elements)
        guard elements[1].is(AssignmentExprSyntax.self) else { return nil }
        let value = AssignedValue(elements: Array(elements[2...]))
        let target = elements[0]
        if let member = target.as(MemberAccessExprSyntax.self), member.base?.trimmedDescription == "self" {
            return (member.declName.baseName.text, value)
        }
        if let reference = target.as(DeclReferenceExprSyntax.self), storedProperties().contains(where: { $0.0 == reference.baseName.text }) {
            return (reference.baseName.text, value)
        }
        return nil
    }

    private func references(_ node: some SyntaxProtocol, anyOf names: Set<String>) -> Bool {
        node.descendants(DeclReferenceExprSyntax.self).contains { reference in
            names.contains(reference.baseName.text) && !FreeVariables.isMemberName(reference)
        }
    }

    private func isHolder(_ type: String) -> Bool {
        context.index.types[type].flatMap { DatabaseHolder($0, context: context) } != nil
    }

    private func propertyType(_ name: String) -> String? {
        storedProperties().first { $0.0 == name }?.1
    }

    /// The value of the root property in this initializer: what it assigns
    /// to it, or the property's own initial value; the receiver expression
    /// with it.
    private func rootValue(of root: HandleRoot, in initializer: InitializerDeclSyntax) -> String {
        guard let property = root.property else { return root.expression }
        let rest = String(root.expression.dropFirst(property.count))
        if let (_, value) = assignments(in: initializer).first(where: { $0.0 == property }) {
            let text = value.trimmedDescription
            let simple = text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            return (simple ? text : "(\(text))") + rest
        }
        return root.expression
    }

    /// The production value for a finder property: its wrapper around
    /// what the initializer assigned.
    private func wrapper(for finder: MigrationContext.FinderProperty, around value: String) -> String {
        let wrapper = "\(context.consumer.name).Wrappers.\(finder.legacyType)"
        if !finder.plan.members.contains(where: { !$0.legacy.isStatic }) { return "\(wrapper)()" }
        if finder.plan.makesLegacyPerCall { return "\(wrapper)(making: { \(value) })" }
        return "\(wrapper)(\(value))"
    }

    /// The production value of a finder property the initializer assigns:
    /// its wrapper around the value, mapped when the value is an optional
    /// parameter (`store: Store?` → `store.map { C.Wrappers.Store($0) }`).
    private func productionValue(
        of finder: MigrationContext.FinderProperty, assigned value: AssignedValue, in initializer: InitializerDeclSyntax
    ) -> String {
        let text = value.trimmedDescription
        if text == "nil" { return text }
        let parameter = initializer.signature.parameterClause.parameters.first { ($0.secondName ?? $0.firstName).text == text }
        guard let type = parameter?.type, type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self),
              finder.holding != .strong
        else { return wrapper(for: finder, around: text) }
        if finder.plan.makesLegacyPerCall { return "\(text).map { \(text) in \(wrapper(for: finder, around: text)) }" }
        return "\(text).map { \(wrapper(for: finder, around: "$0")) }"
    }

    /// The migrated initializer's access: the original one's, narrowed to
    /// the shims' (a public initializer cannot take a package shim).
    private func migratedAccess(_ modifiers: DeclModifierListSyntax) -> String {
        var access = TypeCollector.explicitAccessLevel(modifiers) ?? .internal
        if !context.requirements.isEmpty { access = min(access, databaseShimAccess) }
        for finder in context.finderProperties.values {
            access = min(access, finder.plan.accessLevel(configuration: context.configuration))
        }
        return access.modifier
    }

    private func insertConvenience(into signature: String, modifiers: DeclModifierListSyntax) -> String {
        guard let range = signature.range(of: "init(") else { return signature }
        return signature.replacingCharacters(in: range, with: "convenience init(")
    }
}
#endif
