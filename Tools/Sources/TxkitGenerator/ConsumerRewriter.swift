import SwiftSyntax

/// Plans `txkit shim --apply`: the edits that make a consumer reach a
/// legacy type only through its generated shim.
///
/// - The consumer gets a stored property of type `C.Shims.D`: its existing
///   stored property of the legacy type is retyped (the initializer
///   parameter that fills it too, a default value wrapped in
///   `C.Wrappers.D`), or a new one is added with an initializer parameter
///   that defaults to the production wrapper, so callers keep compiling.
/// - Each use goes through that property: `D.find(…)` becomes
///   `self.d.find(…)`, and the legacy transaction argument, built with the
///   configured bridge (inline or in a local), becomes the TransactionKit
///   transaction inside it, unlabeled as the shim declares it.
/// - A local that only held the bridged transaction is removed; `try` is
///   added where the shim throws and the legacy member did not.
///
/// Uses it cannot rewrite (through a local or a parameter of the legacy
/// type, or a transaction not built with the bridge) stop it with an
/// error that names the place, before anything is written.
struct ConsumerRewriter {
    private let plan: ShimPlan
    private let configuration: GeneratorConfiguration
    private var edits: [String: [TextEdit]] = [:]
    private var files: [String: SourceFile] = [:]
    private var bridgeLocals: [BridgeLocal] = []

    /// A local such as `let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))`.
    private struct BridgeLocal {
        var name: String
        var item: CodeBlockItemSyntax
        var list: CodeBlockItemListSyntax
        var file: SourceFile
        /// The offsets of the references the rewrite replaced.
        var replaced: Set<Int>
    }

    init(plan: ShimPlan, configuration: GeneratorConfiguration) {
        self.plan = plan
        self.configuration = configuration
    }

    private var consumerName: String { plan.consumer.name }
    private var legacyName: String { plan.legacy.name }
    private var shimType: String { "\(consumerName).Shims.\(legacyName)" }
    private var wrapperType: String { "\(consumerName).Wrappers.\(legacyName)" }
    /// Whether the wrapper has `init()` (see ``ShimRenderer``).
    private var wrapperHasEmptyInit: Bool {
        !plan.members.contains { !$0.legacy.isStatic } || plan.legacy.hasArgumentlessInit
    }
    private var wrapperWrapsAnInstance: Bool { plan.members.contains { !$0.legacy.isStatic } }

    /// The edited files, in the order of the consumer's declarations;
    /// empty when every use already goes through the shim.
    mutating func rewrite() throws -> [ConsumerEdit] {
        let uses = plan.uses.filter(\.isThroughLegacyType)
        guard !uses.isEmpty else { return [] }
        for use in uses {
            if case let .variable(name) = use.base {
                throw GeneratorError.cannotApply(
                    "\(use.text) goes through `\(name)`, a local or parameter of type \(legacyName); "
                        + "--apply routes only static uses and stored properties: make it a stored property "
                        + "(or edit this use by hand), then run again",
                    location: use.location)
            }
        }
        let stored = ConsumerScanner.storedProperties(
            of: plan.consumer.declarations, consumer: consumerName, legacy: legacyName
        ).filter(\.value).keys.sorted()
        let property: String
        switch stored.count {
        case 0:
            property = SwiftText.lowercasedFirst(legacyName)
            try addStoredProperty(property)
        case 1:
            property = stored[0]
            try retypeStoredProperty(property)
        default:
            throw GeneratorError.cannotApply(
                "\(consumerName) has several stored properties of type \(legacyName) (\(stored.joined(separator: ", "))); "
                    + "--apply gives it one shim property",
                location: plan.consumer.files.first ?? consumerName)
        }
        for use in uses {
            try route(use, through: property)
        }
        removeUnusedBridgeLocals()
        return plan.consumer.files.compactMap { path in
            guard let fileEdits = edits[path], let file = files[path] else { return nil }
            let original = file.tree.description
            return ConsumerEdit(path: path, original: original, edited: TextEdit.apply(fileEdits, to: original))
        }
    }

    // MARK: Edits

    private mutating func replace(_ node: some SyntaxProtocol, in file: SourceFile, with text: String) {
        add(TextEdit(
            start: node.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: node.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: text), in: file)
    }

    private mutating func insert(_ text: String, at position: AbsolutePosition, in file: SourceFile) {
        add(TextEdit(start: position.utf8Offset, end: position.utf8Offset, replacement: text), in: file)
    }

    private mutating func add(_ edit: TextEdit, in file: SourceFile) {
        files[file.path] = file
        edits[file.path, default: []].append(edit)
    }

    /// `expression` as the production value of the shim property.
    private func wrapped(_ expression: ExprSyntax) -> String {
        let text = expression.trimmedDescription
        if text == "\(legacyName)()" && wrapperHasEmptyInit || !wrapperWrapsAnInstance {
            return "\(wrapperType)()"
        }
        return "\(wrapperType)(\(text))"
    }

    // MARK: The stored property

    private mutating func retypeStoredProperty(_ name: String) throws {
        for declaration in plan.consumer.declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings {
                    guard binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name else { continue }
                    if let annotation = binding.typeAnnotation {
                        guard annotation.type.trimmedDescription == legacyName else {
                            throw GeneratorError.cannotApply(
                                "\(name): \(annotation.type.trimmedDescription) is not exactly \(legacyName); "
                                    + "--apply retypes only a plain stored property",
                                location: declaration.file.location(of: binding))
                        }
                        replace(annotation.type, in: declaration.file, with: shimType)
                    } else {
                        insert(": \(shimType)", at: binding.pattern.endPositionBeforeTrailingTrivia, in: declaration.file)
                    }
                    if let value = binding.initializer?.value {
                        replace(value, in: declaration.file, with: wrapped(value))
                    }
                }
            }
            for item in declaration.memberBlock.members {
                guard let initializer = item.decl.as(InitializerDeclSyntax.self), let body = initializer.body else {
                    continue
                }
                retypeAssignments(to: name, in: body.statements, of: initializer, file: declaration.file)
            }
        }
    }

    /// `self.store = store` in an initializer: the parameter that fills
    /// the property takes the shim (its default wrapped); any other value
    /// is wrapped where it is assigned.
    private mutating func retypeAssignments(
        to name: String, in statements: CodeBlockItemListSyntax, of initializer: InitializerDeclSyntax, file: SourceFile
    ) {
        for statement in statements {
            guard let sequence = statement.item.as(SequenceExprSyntax.self) else { continue }
            let elements = Array(sequence.elements)
            guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { continue }
            let target = elements[0]
            let isProperty = target.as(DeclReferenceExprSyntax.self)?.baseName.text == name
                || (target.as(MemberAccessExprSyntax.self).map {
                    $0.declName.baseName.text == name
                        && $0.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
                } ?? false)
            guard isProperty else { continue }
            let value = elements[2]
            if let reference = value.as(DeclReferenceExprSyntax.self),
               let parameter = initializer.signature.parameterClause.parameters.first(where: {
                   ($0.secondName ?? $0.firstName).text == reference.baseName.text
               }) {
                guard parameter.type.trimmedDescription == legacyName else { continue }
                replace(parameter.type, in: file, with: shimType)
                if let defaultValue = parameter.defaultValue?.value {
                    replace(defaultValue, in: file, with: wrapped(defaultValue))
                }
            } else {
                replace(value, in: file, with: wrapped(value))
            }
        }
    }

    private mutating func addStoredProperty(_ name: String) throws {
        guard let primary = plan.consumer.declarations.first(where: {
            $0.memberBlock.parent?.is(ExtensionDeclSyntax.self) == false
        }) else {
            throw GeneratorError.cannotApply(
                "only extensions of \(consumerName) were found; --apply adds a stored property to its declaration",
                location: plan.consumer.files.first ?? consumerName)
        }
        let file = primary.file
        for declaration in plan.consumer.declarations {
            for item in declaration.memberBlock.members where Self.declares(item.decl, name) {
                throw GeneratorError.cannotApply(
                    "\(consumerName) already has a member named \(name); --apply would add a stored property "
                        + "of that name for \(shimType)",
                    location: declaration.file.location(of: item))
            }
        }
        let members = Array(primary.memberBlock.members)
        let initializers = members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }.filter { initializer in
            !initializer.modifiers.contains { $0.name.text == "convenience" }
        }
        guard !initializers.isEmpty else {
            throw GeneratorError.cannotApply(
                "\(consumerName) declares no initializer; add one (it may be empty), then run again, so that "
                    + "--apply can give it a \(name) parameter",
                location: file.location(of: primary.memberBlock))
        }

        // The property, after the last stored property (or first).
        let lastStored = members.last { item in
            guard let variable = item.decl.as(VariableDeclSyntax.self) else { return false }
            return !variable.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
                && variable.bindings.allSatisfy { $0.accessorBlock == nil }
        }
        let line = "let \(name): \(shimType)"
        if let lastStored {
            insert("\n\(Self.indentation(of: lastStored))\(line)", at: lastStored.endPositionBeforeTrailingTrivia, in: file)
        } else {
            let indent = members.first.map(Self.indentation) ?? "    "
            insert("\n\(indent)\(line)\n", at: primary.memberBlock.leftBrace.endPositionBeforeTrailingTrivia, in: file)
        }

        // An initializer parameter, and its assignment first in the body.
        let defaultValue = wrapperHasEmptyInit ? " = \(wrapperType)()" : ""
        for initializer in initializers {
            let parameters = initializer.signature.parameterClause.parameters
            if parameters.contains(where: { ($0.secondName ?? $0.firstName).text == name }) {
                throw GeneratorError.cannotApply(
                    "an initializer of \(consumerName) already has a parameter named \(name)",
                    location: file.location(of: initializer))
            }
            let parameter = "\(name): \(shimType)\(defaultValue)"
            addParameter(parameter, to: initializer, in: file)
            guard let body = initializer.body else { continue }
            // After the assignments that open the body, or first.
            let statements = Array(body.statements)
            let leading = statements.prefix { Self.isAssignment($0) }
            let indent = statements.first.map(Self.indentation) ?? Self.indentation(of: initializer) + "    "
            let position = leading.last?.endPositionBeforeTrailingTrivia ?? body.leftBrace.endPositionBeforeTrailingTrivia
            insert("\n\(indent)self.\(name) = \(name)", at: position, in: file)
        }
    }

    /// Appends a parameter; a signature that would pass 120 columns gets
    /// one parameter per line.
    private mutating func addParameter(_ parameter: String, to initializer: InitializerDeclSyntax, in file: SourceFile) {
        let clause = initializer.signature.parameterClause
        let parameters = Array(clause.parameters)
        guard let last = parameters.last else {
            insert(parameter, at: clause.leftParen.endPositionBeforeTrailingTrivia, in: file)
            return
        }
        let isMultiline = last.leadingTrivia.contains { if case .newlines = $0 { true } else { false } }
        if isMultiline {
            insert(",\n\(Self.indentation(of: last))\(parameter)", at: last.endPositionBeforeTrailingTrivia, in: file)
            return
        }
        let column = initializer.signature.startLocation(converter: file.converter).column
        let lineLength = column + clause.trimmedDescription.count + 2 + parameter.count
            + (initializer.signature.effectSpecifiers?.trimmedDescription.count ?? 0) + 2
        if lineLength <= 120 {
            insert(", " + parameter, at: last.endPositionBeforeTrailingTrivia, in: file)
            return
        }
        let indent = Self.indentation(of: initializer)
        let lines = parameters.map { $0.with(\.trailingComma, nil).trimmedDescription } + [parameter]
        replace(clause, in: file, with: "(\n" + lines.map { "\(indent)    \($0)" }.joined(separator: ",\n") + "\n\(indent))")
    }

    /// `self.x = y` or `x = y`.
    private static func isAssignment(_ item: CodeBlockItemSyntax) -> Bool {
        guard let sequence = item.item.as(SequenceExprSyntax.self) else { return false }
        let elements = Array(sequence.elements)
        return elements.count == 3 && elements[1].is(AssignmentExprSyntax.self)
    }

    private static func declares(_ decl: DeclSyntax, _ name: String) -> Bool {
        if let variable = decl.as(VariableDeclSyntax.self) {
            return variable.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }
        }
        if let function = decl.as(FunctionDeclSyntax.self) {
            return function.name.text == name
        }
        return false
    }

    /// The spaces that start the line `node` starts.
    private static func indentation(of node: some SyntaxProtocol) -> String {
        var indent = ""
        for piece in node.leadingTrivia {
            switch piece {
            case .newlines, .carriageReturnLineFeeds, .carriageReturns: indent = ""
            case let .spaces(count): indent += String(repeating: " ", count: count)
            case let .tabs(count): indent += String(repeating: "\t", count: count)
            default: break
            }
        }
        return indent
    }

    // MARK: Uses

    private mutating func route(_ use: ConsumerUse, through property: String) throws {
        if Self.isInStaticMember(Syntax(use.node)) {
            throw GeneratorError.cannotApply(
                "\(use.text) is in a static member of \(consumerName), which has no instance to hold "
                    + "\(shimType); move it to an instance member or edit it by hand",
                location: use.location)
        }
        if use.base == .type, let base = use.node.base {
            replace(base, in: use.file, with: "self.\(property)")
        }
        guard case let .call(labels) = use.access,
              let call = use.node.parent?.as(FunctionCallExprSyntax.self)
        else { return }
        let configuration = configuration
        let isLegacyTransaction = { (type: String) in configuration.legacyTransaction(named: type) != nil }
        guard let member = try ShimPlan.resolve(use, in: plan.legacy, isLegacyTransaction: isLegacyTransaction)
            .first?.0,
            let shimMember = plan.members.first(where: { $0.legacy == member }),
            let index = member.parameters.firstIndex(where: { isLegacyTransaction($0.type) })
        else { return }
        let parameter = member.parameters[index]

        let matcher = CallMatcher(member: member, shimForm: false, isLegacyTransaction: isLegacyTransaction)
        let arguments = Array(call.arguments)
        guard let filled = matcher.argumentParameters(labels),
              let position = filled.firstIndex(of: index), position < arguments.count
        else {
            throw GeneratorError.cannotApply(
                "\(use.text) passes its \(parameter.type) in a trailing closure or not at all",
                location: use.location)
        }
        let argument = arguments[position]
        let transaction = try transactionExpression(argument.expression, type: parameter.type, use: use)
        add(TextEdit(
            start: argument.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: argument.expression.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: transaction), in: use.file)

        // The shim throws where the legacy member may not have.
        if shimMember.shimThrowsClause == "throws", member.throwsClause == nil || member.throwsClause == "rethrows",
           !Self.isCoveredByTry(Syntax(call)) {
            insert("try ", at: Self.tryPosition(for: Syntax(call)), in: use.file)
        }
    }

    /// The TransactionKit transaction inside a legacy transaction argument:
    /// the bridge written inline, or a local initialized with it.
    private mutating func transactionExpression(_ expression: ExprSyntax, type: String, use: ConsumerUse) throws -> String {
        guard let bridge = configuration.legacyTransaction(named: type)?.bridge else {
            throw GeneratorError.cannotApply("\(type) has no bridge in txkit.json", location: use.location)
        }
        if let inner = Self.match(expression, bridge: bridge) {
            return inner
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self),
           var local = Self.local(named: reference.baseName.text, before: Syntax(expression), file: use.file),
           let value = local.item.item.as(VariableDeclSyntax.self)?.bindings.first?.initializer?.value,
           let inner = Self.match(value, bridge: bridge) {
            if let index = bridgeLocals.firstIndex(where: { $0.item.id == local.item.id }) {
                bridgeLocals[index].replaced.insert(reference.position.utf8Offset)
            } else {
                local.replaced.insert(reference.position.utf8Offset)
                bridgeLocals.append(local)
            }
            return inner
        }
        throw GeneratorError.cannotApply(
            "\(use.text): its \(type) `\(expression.trimmedDescription)` is not built with the bridge of "
                + "txkit.json (\(bridge)) here or in a local, so --apply cannot tell which TransactionKit "
                + "transaction to pass; edit this call by hand",
            location: use.location)
    }

    /// The text `$tx` stands for when `expression` is `bridge`, spaces aside.
    private static func match(_ expression: ExprSyntax, bridge: String) -> String? {
        let squeeze = { (text: String) in text.filter { !$0.isWhitespace } }
        let parts = bridge.components(separatedBy: "$tx")
        guard parts.count == 2 else { return nil }
        let text = squeeze(expression.trimmedDescription)
        let (prefix, suffix) = (squeeze(parts[0]), squeeze(parts[1]))
        guard text.count > prefix.count + suffix.count, text.hasPrefix(prefix), text.hasSuffix(suffix) else {
            return nil
        }
        let inner = text.dropFirst(prefix.count).dropLast(suffix.count)
        return inner.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } ? String(inner) : nil
    }

    /// The `let name = …` declared before `node` in a block around it.
    private static func local(named name: String, before node: Syntax, file: SourceFile) -> BridgeLocal? {
        var current = node
        while let parent = current.parent {
            if let list = parent.as(CodeBlockItemListSyntax.self), let item = current.as(CodeBlockItemSyntax.self) {
                for candidate in list where candidate.position < item.position {
                    guard let variable = candidate.item.as(VariableDeclSyntax.self),
                          variable.bindingSpecifier.tokenKind == .keyword(.let),
                          variable.bindings.count == 1,
                          variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                    else { continue }
                    return BridgeLocal(name: name, item: candidate, list: list, file: file, replaced: [])
                }
            }
            if parent.is(MemberBlockItemSyntax.self) { return nil }
            current = parent
        }
        return nil
    }

    /// Removes the bridge locals that nothing reads any more.
    private mutating func removeUnusedBridgeLocals() {
        for local in bridgeLocals {
            let counter = ReferenceCounter(name: local.name)
            for item in local.list where item.position > local.item.position {
                counter.walk(item)
            }
            guard counter.positions.subtracting(local.replaced).isEmpty else { continue }
            add(TextEdit(
                start: local.item.position.utf8Offset,
                end: local.item.endPositionBeforeTrailingTrivia.utf8Offset,
                replacement: ""), in: local.file)
        }
    }

    /// Whether `node` is inside a `static` or `class` member of its type.
    private static func isInStaticMember(_ node: Syntax) -> Bool {
        var current = node
        while let parent = current.parent {
            if parent.is(MemberBlockItemSyntax.self) {
                let modifiers = current.asProtocol((any WithModifiersSyntax).self)?.modifiers
                return modifiers?.contains { $0.name.text == "static" || $0.name.text == "class" } ?? false
            }
            current = parent
        }
        return false
    }

    /// Whether a `try` to the left already covers `node`.
    private static func isCoveredByTry(_ node: Syntax) -> Bool {
        var current = node.parent
        while let node = current {
            if node.is(TryExprSyntax.self) { return true }
            if node.is(CodeBlockItemSyntax.self) || node.is(ClosureExprSyntax.self) || node.is(MemberBlockItemSyntax.self) {
                return false
            }
            current = node.parent
        }
        return false
    }

    /// Where `try` goes for a call: before it, or before the operator
    /// sequence it ends (`try` cannot follow a binary operator).
    private static func tryPosition(for call: Syntax) -> AbsolutePosition {
        if let sequence = call.parent?.parent?.as(SequenceExprSyntax.self), call.parent?.is(ExprListSyntax.self) == true,
           sequence.elements.first?.id != call.id {
            return sequence.positionAfterSkippingLeadingTrivia
        }
        return call.positionAfterSkippingLeadingTrivia
    }
}

/// The positions of the references to one name in a subtree.
private final class ReferenceCounter: SyntaxVisitor {
    let name: String
    var positions: Set<Int> = []

    init(name: String) {
        self.name = name
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.baseName.text == name { positions.insert(node.position.utf8Offset) }
        return .visitChildren
    }
}
