#if Txkit
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
    let plan: ShimPlan
    let configuration: GeneratorConfiguration
    private var edits: [String: [TextEdit]] = [:]
    private var files: [String: SourceFile] = [:]
    private var bridgeLocals: [BridgeLocal] = []
    /// The labels of the initializer parameters retyped to the shim: the
    /// callers that pass them are updated (``updateInitializerCallers()``).
    var retypedParameters: Set<String> = []

    /// A local such as `let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))`.
    struct BridgeLocal {
        var name: String
        var item: CodeBlockItemSyntax
        var list: CodeBlockItemListSyntax
        var file: SourceFile
        /// The offsets of the references the rewrite replaced.
        var replaced: Set<Int>

        /// Notes that the rewrite replaced `reference` to `local`, adding
        /// `local` to `locals` the first time.
        static func record(_ reference: DeclReferenceExprSyntax, to local: BridgeLocal, in locals: inout [BridgeLocal]) {
            let offset = reference.position.utf8Offset
            if let index = locals.firstIndex(where: { $0.item.id == local.item.id }) {
                locals[index].replaced.insert(offset)
            } else {
                var local = local
                local.replaced.insert(offset)
                locals.append(local)
            }
        }

        /// The edit that deletes the declaration, when nothing after it
        /// reads the local but the references the rewrite replaced.
        var removalIfUnread: TextEdit? {
            let counter = ReferenceCounter(name: name)
            for later in list where later.position > item.position {
                counter.walk(later)
            }
            guard counter.positions.subtracting(replaced).isEmpty else { return nil }
            return TextEdit(
                start: item.position.utf8Offset, end: item.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "")
        }
    }

    init(plan: ShimPlan, configuration: GeneratorConfiguration) {
        self.plan = plan
        self.configuration = configuration
    }

    var consumerName: String { plan.consumer.name }
    var legacyName: String { plan.legacy.name }
    var shimType: String { "\(consumerName).Shims.\(legacyName)" }
    var wrapperType: String { "\(consumerName).Wrappers.\(legacyName)" }
    /// Whether the wrapper has `init()` (see ``ShimRenderer``).
    var wrapperHasEmptyInit: Bool {
        !plan.members.contains { !$0.legacy.isStatic } || plan.legacy.hasArgumentlessInit
    }
    var wrapperWrapsAnInstance: Bool { plan.members.contains { !$0.legacy.isStatic } }

    /// The edited files, in the order of the consumer's declarations;
    /// empty when every use already goes through the shim.
    mutating func rewrite() throws -> [ConsumerEdit] {
        let uses = plan.uses.filter(\.isThroughLegacyType)
        guard !uses.isEmpty else { return [] }
        // Every refusal is listed, not only the first: a person fixes
        // them all before the next run.
        var refusals: [GeneratorError] = []
        func refuse(_ body: () throws -> Void) throws {
            do {
                try body()
            } catch let error as GeneratorError {
                if case let .refusals(errors) = error { refusals += errors } else { refusals.append(error) }
            }
        }
        // A local that holds a singleton or a temporary of the legacy type
        // (`let store = Store()`, `let store = Store.shared`) is that
        // expression: the consumer holds it in its shim property, the
        // uses go through the property and the local goes.
        var serviceLocals: [Int: (expression: String, local: BridgeLocal)] = [:]
        for use in uses {
            guard case let .variable(name) = use.base,
                  let local = Self.local(named: name, before: Syntax(use.node), file: use.file),
                  let binding = local.item.item.as(VariableDeclSyntax.self)?.bindings.first,
                  binding.typeAnnotation.map({ $0.type.trimmedDescription == legacyName }) ?? true,
                  let value = binding.initializer?.value, isServiceExpression(value.trimmedDescription)
            else { continue }
            serviceLocals[use.node.position.utf8Offset] = (value.trimmedDescription, local)
        }
        let routable = Set(uses.filter { use in
            switch use.base {
            case .variable: serviceLocals[use.node.position.utf8Offset] != nil
            case let .expression(text): isServiceExpression(text)
            case .type, .storedProperty: true
            }
        }.map(\.node.position.utf8Offset))
        let isRoutable = { (use: ConsumerUse) in routable.contains(use.node.position.utf8Offset) }
        for use in uses where !isRoutable(use) {
            if case let .variable(name) = use.base {
                refusals.append(GeneratorError.cannotApply(
                    "\(use.text) goes through `\(name)`, a local or parameter of type \(legacyName); "
                        + "--apply routes static uses, stored properties and locals that hold a singleton or "
                        + "a temporary (`let x = \(legacyName)()`): make it a stored property "
                        + "(or edit this use by hand), then run again",
                    location: use.location))
            }
            if case let .expression(text) = use.base, !isServiceExpression(text) {
                refusals.append(GeneratorError.cannotApply(
                    "\(use.text) reaches \(legacyName) through `\(text)` (a singleton, a temporary, a chain "
                        + "or an inferred property); --apply routes only static uses and stored properties "
                        + "declared with \(legacyName): edit this use by hand, then run again",
                    location: use.location))
            }
        }
        let stored = ConsumerScanner.storedProperties(
            of: plan.consumer.declarations, consumer: consumerName, legacy: legacyName
        ).filter(\.value).keys.sorted()
        // Uses through one singleton or temporary (`Legacy.shared`,
        // `Legacy.shared()`, `Legacy()`): the shim property's production
        // value wraps that very expression.
        let services = Set(uses.compactMap { use -> String? in
            if case let .expression(text) = use.base, isServiceExpression(text) { return text }
            return serviceLocals[use.node.position.utf8Offset]?.expression
        })
        if let service = services.first, services.count > 1 || !stored.isEmpty {
            refusals.append(GeneratorError.cannotApply(
                "\(consumerName) reaches \(legacyName) through \(services.count > 1 ? "several expressions" : "`\(service)` and a stored property") "
                    + "(\((services.sorted() + stored).joined(separator: ", "))); --apply gives it one shim property: "
                    + "use one of them everywhere, then run again",
                location: uses.first { if case .expression = $0.base { true } else { false } }?.location ?? consumerName))
            throw refusals.count == 1 ? refusals[0] : GeneratorError.refusals(refusals)
        }
        // A consumer that says `Sendable` cannot hold the shim of a legacy
        // type that is not (its uses were through locals, singletons or
        // the type): the property would break its conformance.
        if stored.isEmpty, !plan.isLegacySendable, plan.consumer.inherited.contains("Sendable") {
            refusals.append(GeneratorError.cannotApply(
                "\(consumerName) is Sendable and \(legacyName) is not, so neither is its shim: the shim property "
                    + "--apply would add would break \(consumerName)'s Sendable conformance; declare \(legacyName) "
                    + "Sendable (or @unchecked Sendable if it guards its state), then run again",
                location: plan.consumer.declarations.first?.location ?? consumerName))
            throw refusals.count == 1 ? refusals[0] : GeneratorError.refusals(refusals)
        }
        var property = SwiftText.lowercasedFirst(legacyName)
        try refuse {
            switch stored.count {
            case 0:
                try addStoredProperty(property, production: services.first.map { "\(wrapperType)(\($0))" })
            case 1:
                property = stored[0]
                try retypeStoredProperty(property)
            default:
                throw GeneratorError.cannotApply(
                    "\(consumerName) has several stored properties of type \(legacyName) (\(stored.joined(separator: ", "))); "
                        + "--apply gives it one shim property",
                    location: plan.consumer.files.first ?? consumerName)
            }
        }
        for use in uses where isRoutable(use) {
            if let (_, local) = serviceLocals[use.node.position.utf8Offset],
               let reference = use.node.base?.as(DeclReferenceExprSyntax.self) {
                replace(reference, in: use.file, with: "self.\(property)")
                BridgeLocal.record(reference, to: local, in: &bridgeLocals)
            }
            try refuse { try route(use, through: property) }
        }
        if refusals.count == 1 { throw refusals[0] }
        if !refusals.isEmpty { throw GeneratorError.refusals(refusals) }
        removeUnusedBridgeLocals()
        updateInitializerCallers()
        // The consumer's files first, then the callers' files.
        let paths = plan.consumer.files + edits.keys.filter { !plan.consumer.files.contains($0) }.sorted()
        return try paths.compactMap { path in
            guard let fileEdits = edits[path], let file = files[path] else { return nil }
            try Self.requireNoOverlap(fileEdits, in: file)
            let original = file.tree.description
            return ConsumerEdit(path: path, original: original, edited: TextEdit.apply(fileEdits, to: original))
        }
    }

    /// Wraps what the callers of the consumer's initializers pass for a
    /// retyped parameter (`TaskManager(store: TaskStore())` becomes
    /// `TaskManager(store: TaskManager.Wrappers.TaskStore())`), in every
    /// file of the sources, `self.init(…)` of the consumer included: the
    /// same instance, now behind the shim. Callers outside the sources
    /// (another module, a test target) are not seen.
    private mutating func updateInitializerCallers() {
        guard !retypedParameters.isEmpty, let index = plan.consumer.index else { return }
        let ownFiles = Set(plan.consumer.declarations.map(\.file.path))
        for file in index.sources.files {
            let finder = InitializerCallFinder(type: consumerName, selfInit: ownFiles.contains(file.path))
            finder.walk(file.tree)
            for call in finder.calls {
                for argument in call.arguments {
                    guard let label = argument.label?.text, retypedParameters.contains(label) else { continue }
                    let text = argument.expression.trimmedDescription
                    if text.hasPrefix("\(consumerName).Wrappers.") || text.hasPrefix("\(consumerName).Mocks.") { continue }
                    // `self.init(store: store)` passing on a parameter of
                    // another type than the legacy one (a mock's): as it is.
                    if finder.selfInitCalls.contains(call.id), let reference = argument.expression.as(DeclReferenceExprSyntax.self),
                       let type = Self.enclosingInitializerParameterType(Syntax(call), parameter: reference.baseName.text),
                       type != legacyName {
                        continue
                    }
                    replace(argument.expression, in: file, with: wrapped(argument.expression))
                }
            }
        }
    }

    /// For `self.init(x: x)`: the type of the enclosing initializer's
    /// parameter `x`, if it has one.
    private static func enclosingInitializerParameterType(_ node: Syntax, parameter: String) -> String? {
        var current = node
        while let parent = current.parent {
            if let initializer = parent.as(InitializerDeclSyntax.self) {
                return initializer.signature.parameterClause.parameters.first {
                    ($0.secondName ?? $0.firstName).text == parameter
                }?.type.trimmedDescription
            }
            current = parent
        }
        return nil
    }

    /// Refuses edits that touch the same bytes: made one after the other,
    /// they would garble the code (`self.orderFindernder`).
    static func requireNoOverlap(_ edits: [TextEdit], in file: SourceFile) throws {
        let pairs = TextEdit.overlappingPairs(edits)
        guard !pairs.isEmpty else { return }
        let location = { (offset: Int) -> String in
            let place = file.converter.location(for: AbsolutePosition(utf8Offset: offset))
            return "\(file.path):\(place.line):\(place.column)"
        }
        throw GeneratorError.overlappingEdits(
            path: file.path,
            locations: pairs.map { first, second in
                "\(location(first.start))-\(location(first.end)) and \(location(second.start))-\(location(second.end))"
            })
    }

    // MARK: Edits

    mutating func replace(_ node: some SyntaxProtocol, in file: SourceFile, with text: String) {
        add(TextEdit(
            start: node.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: node.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: text), in: file)
    }

    mutating func insert(_ text: String, at position: AbsolutePosition, in file: SourceFile) {
        add(TextEdit(start: position.utf8Offset, end: position.utf8Offset, replacement: text), in: file)
    }

    mutating func add(_ edit: TextEdit, in file: SourceFile) {
        files[file.path] = file
        edits[file.path, default: []].append(edit)
    }

    /// Whether `text` names one instance the consumer can hold for good: a
    /// singleton or a temporary of the legacy type (`Legacy.shared`,
    /// `Legacy.shared()`, `Legacy()`), with no argument and nothing of the
    /// consumer's own in it.
    func isServiceExpression(_ text: String) -> Bool {
        guard wrapperWrapsAnInstance, text.hasPrefix(legacyName) else { return false }
        var rest = Substring(text.dropFirst(legacyName.count))
        if rest.hasPrefix("()") { rest = rest.dropFirst(2) }
        while rest.hasPrefix(".") {
            rest = rest.dropFirst()
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard !name.isEmpty else { return false }
            rest = rest.dropFirst(name.count)
            if rest.hasPrefix("()") { rest = rest.dropFirst(2) }
        }
        return rest.isEmpty
    }

    /// `expression` as the production value of the shim property.
    func wrapped(_ expression: ExprSyntax) -> String {
        let text = expression.trimmedDescription
        if text == "\(legacyName)()" && wrapperHasEmptyInit || !wrapperWrapsAnInstance {
            return "\(wrapperType)()"
        }
        return "\(wrapperType)(\(text))"
    }

    // MARK: Uses

    private mutating func route(_ use: ConsumerUse, through property: String) throws {
        if Self.isInStaticMember(Syntax(use.node)) {
            throw GeneratorError.cannotApply(
                "\(use.text) is in a static member of \(consumerName), which has no instance to hold "
                    + "\(shimType); move it to an instance member or edit it by hand",
                location: use.location)
        }
        let configuration = configuration
        let isLegacyTransaction = { (type: String) in configuration.legacyTransaction(forParameterType: type) != nil }
        // An accessor that hands out the legacy type (a singleton, a
        // factory without a transaction). A finder that takes a legacy
        // transaction and returns a value of the type (`Book.fetch(isbn:in:)`)
        // is routed: the value's data stays as it is, and its members that
        // take a legacy transaction are uses of their own, refused there.
        if let resolved = try ShimPlan.resolve(use, in: plan.legacy, isLegacyTransaction: isLegacyTransaction).first?.0,
           !resolved.parameters.contains(where: { isLegacyTransaction($0.type) }),
           let result = resolved.resultType, LegacyBodies.bareType(result) == legacyName {
            throw GeneratorError.cannotApply(
                "\(use.text) returns a \(legacyName) (a singleton or a factory): through the shim it would still "
                    + "hand out the legacy type, whose calls keep their legacy transactions; call those members "
                    + "on a stored property of \(consumerName) instead, or edit this use by hand",
                location: use.location)
        }
        switch use.base {
        case .type, .expression:
            if let base = use.node.base {
                replace(base, in: use.file, with: "self.\(property)")
            }
        case .storedProperty, .variable:
            break
        }
        guard case let .call(labels) = use.form,
              let call = use.node.parent?.as(FunctionCallExprSyntax.self)
        else { return }
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
        let transaction = try transactionExpression(
            argument.expression, type: parameter.type, kind: shimMember.transactions[index] ?? .read,
            use: use)
        if shimMember.transactions[index] == .write, use.context == .read {
            throw GeneratorError.cannotApply(
                "\(use.text) runs in a read transaction, but \(legacyName).\(member.displayName) writes "
                    + "(\(shimMember.decision.map { "\($0.reason), rule: \($0.rule.rawValue)" } ?? "configured")); "
                    + "its shim takes a DBWriteTransaction: call it inside a write transaction, or list it in "
                    + "readMembers of txkit.json if it only reads",
                location: use.location)
        }
        add(TextEdit(
            start: argument.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: argument.expression.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: transaction), in: use.file)

        // The shim throws where the legacy member may not have.
        if shimMember.shimThrowsClause == "throws", member.throwsClause == nil || member.throwsClause == "rethrows",
           !Self.isCoveredByTry(Syntax(call)) {
            // In a closure, `try` would make the closure throw, and the call
            // it is passed to (`compactMap`) would need a `try` of its own,
            // or fail to compile against an explicit non-throwing signature.
            if Self.isInNonThrowingClosure(Syntax(call)) {
                throw GeneratorError.cannotApply(
                    "\(use.text) is in a closure, and its shim throws where \(legacyName).\(member.displayName) "
                        + "does not: the closure would have to throw; move the call out of the closure (or mark "
                        + "it `try` and let the closure throw), then run again",
                    location: use.location)
            }
            insert("try ", at: Self.tryPosition(for: Syntax(call)), in: use.file)
        }
    }

    /// The TransactionKit transaction inside a legacy transaction argument:
    /// the bridge written inline, or a local initialized with it.
    ///
    /// Every configured bridge is recognised, not only the parameter
    /// type's: a legacy layer with a read and a write transaction passes
    /// one where the other is taken (a write transaction built with the
    /// write bridge, handed to a member that takes the read type).
    private mutating func transactionExpression(
        _ expression: ExprSyntax, type: String, kind: TransactionKind, use: ConsumerUse
    ) throws -> String {
        guard let ownBridge = configuration.legacyTransaction(forParameterType: type)?.bridge else {
            throw GeneratorError.cannotApply("\(type) has no bridge in txkit.json", location: use.location)
        }
        let bridges = [ownBridge] + configuration.legacyTransactions.map(\.bridge).filter { $0 != ownBridge }
        let matchAny = { (candidate: ExprSyntax) in bridges.lazy.compactMap { Self.match(candidate, bridge: $0) }.first }
        if let inner = matchAny(expression) {
            return inner
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self),
           let local = Self.local(named: reference.baseName.text, before: Syntax(expression), file: use.file),
           let value = local.item.item.as(VariableDeclSyntax.self)?.bindings.first?.initializer?.value,
           let inner = matchAny(value) {
            BridgeLocal.record(reference, to: local, in: &bridgeLocals)
            return inner
        }
        var received = expression
        if let (name, scope) = Self.blockConnection(expression, isLegacyTransactionType: { configuration.legacyTransaction(named: $0) != nil }),
           type == "Database" || expression.is(FunctionCallExprSyntax.self) || scope.is(ClosureExprSyntax.self) {
            if let transaction = try blockTransaction(
                connection: name, scope: scope, before: Syntax(expression), kind: kind, location: use.location) {
                return transaction
            }
            // `AppReadTransaction(db)`: the step is about `db`.
            if let call = expression.as(FunctionCallExprSyntax.self), let inner = call.arguments.first?.expression {
                received = inner
            }
        }
        if let step = Self.receivedTransactionStep(
            received, kind: kind, consumer: consumerName,
            legacyTransaction: configuration.legacyTransaction(forParameterType: type)) {
            throw GeneratorError.cannotApply("\(use.text): \(step)", location: use.location)
        }
        throw GeneratorError.cannotApply(
            "\(use.text): its \(type) `\(expression.trimmedDescription)` is not built with a bridge of "
                + "txkit.json (\(bridges.joined(separator: " or "))) here or in a local, so --apply cannot tell "
                + "which TransactionKit transaction to pass; edit this call by hand",
            location: use.location)
    }

    /// The text `$tx` stands for when `expression` is `bridge`, spaces aside.
    static func match(_ expression: ExprSyntax, bridge: String) -> String? {
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
    static func local(named name: String, before node: Syntax, file: SourceFile) -> BridgeLocal? {
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
            if let removal = local.removalIfUnread {
                add(removal, in: local.file)
            }
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
    static func isCoveredByTry(_ node: Syntax) -> Bool {
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

    /// Whether the innermost closure around `node` does not throw yet: it
    /// says no `throws` and holds no `try` (a `db.write { tx in … }` block
    /// holds some).
    static func isInNonThrowingClosure(_ node: Syntax) -> Bool {
        var current = node.parent
        while let node = current {
            if let closure = node.as(ClosureExprSyntax.self) {
                if closure.signature?.effectSpecifiers?.throwsClause != nil { return false }
                return !TryFinder(viewMode: .sourceAccurate).finds(in: closure)
            }
            if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self)
                || node.is(AccessorDeclSyntax.self) || node.is(MemberBlockItemSyntax.self) {
                return false
            }
            current = node.parent
        }
        return false
    }

    /// Where `try` goes for a call: before it, or before the operator
    /// sequence it ends (`try` cannot follow a binary operator).
    static func tryPosition(for call: Syntax) -> AbsolutePosition {
        if let sequence = call.parent?.parent?.as(SequenceExprSyntax.self), call.parent?.is(ExprListSyntax.self) == true,
           sequence.elements.first?.id != call.id {
            return sequence.positionAfterSkippingLeadingTrivia
        }
        return call.positionAfterSkippingLeadingTrivia
    }
}

/// The calls of a type's initializers: `Type(…)`, `Type.init(…)`, and
/// with `selfInit` (in the type's own files) `self.init(…)`.
private final class InitializerCallFinder: SyntaxVisitor {
    let type: String
    let selfInit: Bool
    var calls: [FunctionCallExprSyntax] = []
    var selfInitCalls: Set<SyntaxIdentifier> = []

    init(type: String, selfInit: Bool) {
        self.type = type
        self.selfInit = selfInit
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let called = node.calledExpression
        if called.as(DeclReferenceExprSyntax.self)?.baseName.text == type {
            calls.append(node)
        } else if let access = called.as(MemberAccessExprSyntax.self), access.declName.baseName.tokenKind == .keyword(.`init`) {
            if access.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == type {
                calls.append(node)
            } else if selfInit, access.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
                calls.append(node)
                selfInitCalls.insert(node.id)
            }
        }
        return .visitChildren
    }
}

/// Whether a subtree holds a `try`.
private final class TryFinder: SyntaxVisitor {
    private var found = false

    func finds(in closure: ClosureExprSyntax) -> Bool {
        walk(closure.statements)
        return found
    }

    override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }
}

/// The positions of the references to one name in a subtree.
final class ReferenceCounter: SyntaxVisitor {
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
#endif
