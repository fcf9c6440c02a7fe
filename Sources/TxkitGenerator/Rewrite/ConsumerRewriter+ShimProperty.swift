#if Txkit
import SwiftSyntax

/// The shim property `--apply` routes uses through: the consumer's stored
/// property of the legacy type retyped, or one added with an initializer
/// parameter; what it holds in production (a wrapper of the singleton or
/// temporary the consumer used); and the callers of the initializers whose
/// parameters it retyped.
extension ConsumerRewriter {
    /// Whether `text` names one instance the consumer can hold for good: a
    /// singleton or a temporary of the legacy type (`Legacy.shared`,
    /// `Legacy.shared()`, `Legacy()`), with no argument and nothing of the
    /// consumer's own in it.
    func isServiceExpression(_ text: String) -> Bool {
        if wrapperWrapsAnInstance, isImmutableChain(text) { return true }
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

    /// Whether `text` is a chain of constants from a type of the sources to
    /// the legacy type (`Services.shared.store`: a `static let`, then
    /// stored `let`s): every evaluation gives the same instance, so the
    /// shim property may hold it from the consumer's initialization on. A
    /// `var` or a computed link may give another instance each time.
    func isImmutableChain(_ text: String) -> Bool {
        let links = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard links.count >= 2, let index = plan.consumer.index, var type = index.types[links[0]] else { return false }
        for (position, link) in links.dropFirst().enumerated() {
            guard !link.isEmpty, link.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                  let member = type.allMembers.first(where: { $0.name == link && $0.isStatic == (position == 0) }),
                  case .property(isSettable: false) = member.kind,
                  type.declarations.contains(where: { $0.memberBlock.declaresStoredLet(link) }),
                  let result = member.resultType.map(LegacyBodies.bareType)
            else { return false }
            if position == links.count - 2 { return result == legacyName }
            guard let next = index.types[result] else { return false }
            type = next
        }
        return false
    }

    /// The production value of the shim property when the wrapper makes
    /// the legacy instance per call from `service`, the expression the
    /// consumer made it with: `C.Wrappers.D()` for `D()`, otherwise
    /// `C.Wrappers.D(making: { service })`.
    func perCallProduction(_ service: String) -> String {
        service == "\(legacyName)()" && plan.legacy.hasArgumentlessInit
            ? "\(wrapperType)()" : "\(wrapperType)(making: { \(service) })"
    }

    /// `expression` as the production value of the shim property.
    func wrapped(_ expression: ExprSyntax) -> String {
        let text = expression.trimmedText
        if text == "\(legacyName)()" && wrapperHasEmptyInit || !wrapperWrapsAnInstance {
            return "\(wrapperType)()"
        }
        return "\(wrapperType)(\(text))"
    }

    /// - Returns: The initializer parameters it retyped, whose callers
    ///   ``updateInitializerCallers(of:edits:)`` updates.
    func retypeStoredProperty(_ name: String, edits: inout EditBuffer) throws -> RetypedParameters {
        var retyped = RetypedParameters()
        // Set when the property was `weak` (``replaceWeakProperty(_:binding:in:)``):
        // the stored property that now holds the shim.
        var weakReference: String?
        for declaration in plan.consumer.declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings {
                    guard binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name else { continue }
                    if variable.modifiers.contains(where: { $0.name.text == "weak" }) {
                        weakReference = try replaceWeakProperty(variable, binding: binding, in: declaration, edits: &edits)
                        continue
                    }
                    if let reference = variable.modifiers.first(where: { $0.name.text == "unowned" }) {
                        // The wrapper is a value that holds the instance
                        // strongly, and an unowned shim could not be read
                        // once the instance is released.
                        throw Refusal(
                            .cannotApply, at: declaration.file.sourceLocation(of: binding),
                            "\(name) is an \(reference.trimmedText) reference to \(legacyName), and the shim's "
                                + "wrapper would hold it strongly, which would change when it is released",
                            fix: "make the property strong or weak, or edit it by hand")
                    }
                    var annotatedType = binding.typeAnnotation?.type
                    if let optional = annotatedType?.as(OptionalTypeSyntax.self),
                       optional.wrappedType.trimmedText == legacyName {
                        // `var store: Store?`: the shim, optional.
                        annotatedType = optional.wrappedType
                    }
                    if let annotatedType, annotatedType.trimmedText != legacyName {
                        throw Refusal(
                            .cannotApply, at: declaration.file.sourceLocation(of: binding),
                            "\(name) is declared \(annotatedType.trimmedText), not exactly \(legacyName), and "
                                + "--apply retypes only a plain or optional stored property",
                            fix: "declare it \(legacyName) or \(legacyName)?, or edit it by hand")
                    }
                    let isStatic = variable.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
                    let initializers = declaration.memberBlock.designatedInitializers
                    if let value = binding.initializer?.value, !isStatic, !initializers.isEmpty,
                       declaration.memberBlock.parent?.is(ExtensionDeclSyntax.self) == false {
                        // `let store = Store()`: a test could not inject a
                        // mock. The property takes the shim from a new
                        // initializer parameter whose default is the
                        // production value.
                        edits.add(TextEdit(
                            start: binding.pattern.endPositionBeforeTrailingTrivia.utf8Offset,
                            end: binding.endPositionBeforeTrailingTrivia.utf8Offset,
                            replacement: ": \(shimType)"), in: declaration.file)
                        try requireNameableDefault(of: initializers, name: name, file: declaration.file)
                        try addInitializerParameter(
                            name, defaultValue: " = \(wrapped(value))", to: initializers, in: declaration.file,
                            edits: &edits)
                        continue
                    }
                    if let annotatedType {
                        edits.replace(annotatedType, in: declaration.file, with: shimType)
                    } else {
                        edits.insert(": \(shimType)", at: binding.pattern.endPositionBeforeTrailingTrivia, in: declaration.file)
                    }
                    if let value = binding.initializer?.value {
                        edits.replace(value, in: declaration.file, with: wrapped(value))
                    }
                }
            }
            for item in declaration.memberBlock.members {
                guard let initializer = item.decl.as(InitializerDeclSyntax.self), let body = initializer.body else {
                    continue
                }
                retypeAssignments(
                    to: name, in: body.statements, of: initializer, file: declaration.file, weakReference: weakReference,
                    retyped: &retyped, edits: &edits)
            }
        }
        return retyped
    }

    /// `self.store = store` in an initializer: the parameter that fills
    /// the property takes the shim (its default wrapped); any other value
    /// is wrapped where it is assigned.
    ///
    /// With `weakReference` (the property was `weak`), the assignment sets
    /// that stored property instead (`self.storeReference =
    /// C.Wrappers.Store.WeakReference(store)`): an initializer may assign
    /// before it has set every stored property, when the computed property
    /// that replaced the weak one could not be used yet.
    private func retypeAssignments(
        to name: String, in statements: CodeBlockItemListSyntax, of initializer: InitializerDeclSyntax, file: SourceFile,
        weakReference: String? = nil, retyped: inout RetypedParameters, edits: inout EditBuffer
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
            if let weakReference {
                edits.replace(target, in: file, with: "self.\(weakReference)")
            }
            if let reference = value.as(DeclReferenceExprSyntax.self),
               let parameter = initializer.signature.parameterClause.parameters.first(where: {
                   $0.internalName == reference.baseName.text
               }) {
                if let optional = parameter.type.as(OptionalTypeSyntax.self),
                   optional.wrappedType.trimmedText == legacyName {
                    edits.replace(optional.wrappedType, in: file, with: shimType)
                    retyped.optionalLabels.insert(parameter.firstName.text)
                } else if parameter.type.trimmedText == legacyName {
                    edits.replace(parameter.type, in: file, with: shimType)
                } else {
                    if weakReference != nil { edits.replace(value, in: file, with: weakReferenceValue(value.trimmedText)) }
                    continue
                }
                retyped.labels.insert(parameter.firstName.text)
                if let defaultValue = parameter.defaultValue?.value {
                    edits.replace(defaultValue, in: file, with: wrapped(defaultValue))
                }
                if weakReference != nil { edits.replace(value, in: file, with: weakReferenceValue(value.trimmedText)) }
            } else {
                // `self.store = Store(storage: storage)`: the initializer
                // builds the finder itself. An optional parameter lets a
                // test pass a mock; without one the production value is
                // built as before (WooCommerce's stores: --apply left no
                // way to inject one).
                var production = wrapped(value)
                if let injected = injectionParameter(name, for: initializer, in: file, edits: &edits) {
                    production = "\(injected) ?? \(production)"
                    // `store = …` would now assign the parameter.
                    if weakReference == nil, target.is(DeclReferenceExprSyntax.self) {
                        edits.replace(target, in: file, with: "self.\(name)")
                    }
                }
                edits.replace(value, in: file, with: weakReference == nil ? production : weakReferenceValue(production))
            }
        }
    }

    /// Adds `name: C.Shims.D? = nil` to `initializer` and returns `name`;
    /// `nil` when the initializer already has a parameter of that name or
    /// overrides or satisfies another declaration (`override`, `required`),
    /// whose signature a new parameter would change.
    private func injectionParameter(
        _ name: String, for initializer: InitializerDeclSyntax, in file: SourceFile, edits: inout EditBuffer
    ) -> String? {
        let parameters = initializer.signature.parameterClause.parameters
        guard !parameters.contains(where: { $0.internalName == name || $0.firstName.text == name }),
              !initializer.modifiers.contains(where: { ["override", "required"].contains($0.name.text) })
        else { return nil }
        addParameter("\(name): \(shimType)? = nil", to: initializer, in: file, edits: &edits)
        return name
    }

    /// `C.Wrappers.Store.WeakReference(shim)`: the value of the stored
    /// property that replaced a `weak` one.
    private func weakReferenceValue(_ shim: String) -> String {
        "\(wrapperType).\(ShimPlan.weakReferenceTypeName)(\(shim))"
    }

    /// Replaces `weak var store: Store?` with a computed property of the
    /// shim's optional type and the stored property behind it, a
    /// ``ShimPlan/weakReferenceTypeName`` (declared by the wrapper), which
    /// holds the production wrapper's instance weakly: the property reads
    /// `nil` once the instance is released, as it did; a test's mock is
    /// held strongly.
    ///
    /// - Returns: The stored property's name (`storeReference`).
    private func replaceWeakProperty(
        _ variable: VariableDeclSyntax, binding: PatternBindingSyntax, in declaration: TypeDeclaration,
        edits: inout EditBuffer
    ) throws -> String {
        let name = binding.pattern.trimmedText
        let location = declaration.file.sourceLocation(of: binding)
        let legacyName = legacyName
        let refuse = { (reason: String) in
            Refusal(
                .cannotApply, at: location,
                "\(name) is a weak reference to \(legacyName), \(reason), and --apply rewrites a `weak var` of type "
                    + "\(legacyName)? alone in its declaration, without attributes or initial value",
                fix: "edit it by hand, then run again")
        }
        guard variable.bindings.count == 1 else { throw refuse("declared with others") }
        guard variable.attributes.isEmpty else { throw refuse("with attributes") }
        guard !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else {
            throw refuse("static")
        }
        guard let optional = binding.typeAnnotation?.type.as(OptionalTypeSyntax.self),
              optional.wrappedType.trimmedText == legacyName
        else { throw refuse("not declared \(legacyName)?") }
        if let value = binding.initializer?.value, !value.is(NilLiteralExprSyntax.self) {
            throw refuse("with an initial value")
        }
        let reference = name + "Reference"
        for other in plan.consumer.declarations {
            for item in other.memberBlock.members where item.decl.declares(reference) {
                throw refuse("and \(consumerName) already has a member named \(reference)")
            }
        }
        let indent = variable.indentation
        let modifiers = variable.modifiers.filter { $0.name.text != "weak" }.map(\.trimmedText)
        let type = "\(wrapperType).\(ShimPlan.weakReferenceTypeName)"
        edits.replace(variable, in: declaration.file, with: [
            (modifiers + ["var \(name): \(shimType)? {"]).joined(separator: " "),
            "\(indent)    get { \(reference).shim }",
            "\(indent)    set { \(reference) = \(type)(newValue) }",
            "\(indent)}",
            "\(indent)private var \(reference) = \(type)()",
        ].joined(separator: "\n"))
        return reference
    }

    ///
    /// - Parameter production: The production value of the initializer's
    ///   new parameter (`Wrappers.Legacy(Legacy.shared)` for uses through a
    ///   singleton); by default the wrapper's own `init()`, if it has one.
    func addStoredProperty(_ name: String, production: String? = nil, edits: inout EditBuffer) throws {
        guard let primary = plan.consumer.declarations.first(where: {
            $0.memberBlock.parent?.is(ExtensionDeclSyntax.self) == false
        }) else {
            throw Refusal(
                .cannotApply, at: plan.consumer.location,
                "only extensions of \(consumerName) were found, and --apply adds a stored property to its declaration",
                fix: "add the declaration's file to the sources (--sources, or txkit.json)")
        }
        let file = primary.file
        for declaration in plan.consumer.declarations {
            for item in declaration.memberBlock.members where item.decl.declares(name) {
                throw Refusal(
                    .cannotApply, at: declaration.file.sourceLocation(of: item),
                    "\(consumerName) already has a member named \(name), the stored property --apply would add for "
                        + "\(shimType)",
                    fix: "rename that member, then run again")
            }
        }
        let members = Array(primary.memberBlock.members)
        let initializers = primary.memberBlock.designatedInitializers
        guard !initializers.isEmpty else {
            throw Refusal(
                .cannotApply, at: file.sourceLocation(of: primary.memberBlock),
                "\(consumerName) declares no initializer, to which --apply would give a \(name) parameter",
                fix: "add one (it may be empty), then run again")
        }
        if production != nil || wrapperHasEmptyInit {
            try requireNameableDefault(of: initializers, name: name, file: file)
        }

        // The property, after the last stored property (or first).
        let lastStored = members.last { item in
            guard let variable = item.decl.as(VariableDeclSyntax.self) else { return false }
            return !variable.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
                && variable.bindings.allSatisfy { $0.accessorBlock == nil }
        }
        let line = "let \(name): \(shimType)"
        if let lastStored {
            edits.insert("\n\(lastStored.indentation)\(line)", at: lastStored.endPositionBeforeTrailingTrivia, in: file)
        } else {
            let indent = members.first.map(\.indentation) ?? "    "
            edits.insert("\n\(indent)\(line)\n", at: primary.memberBlock.leftBrace.endPositionBeforeTrailingTrivia, in: file)
        }
        let defaultValue = production.map { " = \($0)" } ?? (wrapperHasEmptyInit ? " = \(wrapperType)()" : "")
        try addInitializerParameter(name, defaultValue: defaultValue, to: initializers, in: file, edits: &edits)
    }

    /// Refuses a public initializer whose new parameter's default would
    /// name a wrapper that is not public.
    ///
    /// A default argument of a public initializer is compiled into its
    /// callers, so it may name only public declarations: a package or
    /// internal wrapper there would not build.
    private func requireNameableDefault(of initializers: [InitializerDeclSyntax], name: String, file: SourceFile) throws {
        let wrapperAccess = min(configuration.accessLevel, plan.consumer.accessLevel)
        guard plan.consumer.accessLevel.isPublic, !wrapperAccess.isPublic,
              let exposed = initializers.first(where: { $0.modifiers.contains { ["public", "open"].contains($0.name.text) } })
        else { return }
        throw Refusal(
            .cannotApply, at: file.sourceLocation(of: exposed),
            "this initializer of \(consumerName) is public, and --apply would give it a `\(name)` parameter whose "
                + "default value is \(shimType)'s \(wrapperAccess) wrapper, which a public default argument cannot name",
            fix: "set \"accessLevel\": \"public\" in txkit.json, or make the initializer package or internal, then "
                + "run again")
    }

    /// Gives each initializer a `name: Shim = default` parameter and
    /// `self.name = name` after the assignments that open its body.
    private func addInitializerParameter(
        _ name: String, defaultValue: String, to initializers: [InitializerDeclSyntax], in file: SourceFile,
        edits: inout EditBuffer
    ) throws {
        for initializer in initializers {
            let parameters = initializer.signature.parameterClause.parameters
            if parameters.contains(where: { $0.internalName == name }) {
                throw Refusal(
                    .cannotApply, at: file.sourceLocation(of: initializer),
                    "an initializer of \(consumerName) already has a parameter named \(name), the parameter --apply "
                        + "would add for \(shimType)",
                    fix: "rename that parameter, then run again")
            }
            let parameter = "\(name): \(shimType)\(defaultValue)"
            addParameter(parameter, to: initializer, in: file, edits: &edits)
            guard let body = initializer.body else { continue }
            // After the assignments that open the body, or first.
            let statements = Array(body.statements)
            let leading = statements.prefix(while: \.isAssignment)
            let indent = statements.first.map(\.indentation) ?? initializer.indentation + "    "
            let position = leading.last?.endPositionBeforeTrailingTrivia ?? body.leftBrace.endPositionBeforeTrailingTrivia
            // An empty body (`init() {}`) gets its closing brace on a line of its own.
            let closing = statements.isEmpty && !body.rightBrace.leadingTrivia.contains(where: \.isNewline)
                ? "\n" + initializer.indentation : ""
            edits.insert("\n\(indent)self.\(name) = \(name)\(closing)", at: position, in: file)
        }
    }

    /// Appends a parameter; a signature that would pass 120 columns gets
    /// one parameter per line.
    private func addParameter(
        _ parameter: String, to initializer: InitializerDeclSyntax, in file: SourceFile, edits: inout EditBuffer
    ) {
        let clause = initializer.signature.parameterClause
        let parameters = Array(clause.parameters)
        guard let last = parameters.last else {
            edits.insert(parameter, at: clause.leftParen.endPositionBeforeTrailingTrivia, in: file)
            return
        }
        let isMultiline = last.leadingTrivia.contains { if case .newlines = $0 { true } else { false } }
        if isMultiline {
            edits.insert(",\n\(last.indentation)\(parameter)", at: last.endPositionBeforeTrailingTrivia, in: file)
            return
        }
        let column = initializer.signature.startLocation(converter: file.converter).column
        let lineLength = column + clause.trimmedText.count + 2 + parameter.count
            + (initializer.signature.effectSpecifiers?.trimmedText.count ?? 0) + 2
        if lineLength <= 120 {
            edits.insert(", " + parameter, at: last.endPositionBeforeTrailingTrivia, in: file)
            return
        }
        let indent = initializer.indentation
        let lines = parameters.map { $0.with(\.trailingComma, nil).trimmedText } + [parameter]
        edits.replace(clause, in: file, with: "(\n" + lines.map { "\(indent)    \($0)" }.joined(separator: ",\n") + "\n\(indent))")
    }

    /// Wraps what the callers of the consumer's initializers pass for a
    /// retyped parameter (`TaskManager(store: TaskStore())` becomes
    /// `TaskManager(store: TaskManager.Wrappers.TaskStore())`), in every
    /// file of the sources, `self.init(…)` of the consumer included: the
    /// same instance, now behind the shim. Callers outside the sources
    /// (another module, a test target) are not seen. Only the files that
    /// mention the consumer are walked.
    ///
    /// An optional parameter's callers pass `nil` as it is, and the legacy
    /// type's initializer or singleton wrapped; any other value may be
    /// optional or not, which the sources do not say: refused.
    func updateInitializerCallers(of retyped: RetypedParameters, edits: inout EditBuffer) throws {
        guard !retyped.labels.isEmpty, let index = plan.consumer.index else { return }
        let ownFiles = Set(plan.consumer.declarations.map(\.file.path))
        for file in index.sources.filesMentioning(consumerName, or: ownFiles) {
            let finder = InitializerCallFinder(type: consumerName, selfInit: ownFiles.contains(file.path))
            finder.walk(file.tree)
            for call in finder.calls {
                for argument in call.arguments {
                    guard let label = argument.label?.text, retyped.labels.contains(label) else { continue }
                    let text = argument.expression.trimmedText
                    if GeneratedLayout.namesWrapperOrMock(text, consumer: consumerName) { continue }
                    // `self.init(store: store)` passing on a parameter of
                    // another type than the legacy one (a mock's): as it is.
                    if finder.selfInitCalls.contains(call.id), let reference = argument.expression.as(DeclReferenceExprSyntax.self),
                       let type = call.enclosingInitializerParameterType(named: reference.baseName.text),
                       type != legacyName {
                        continue
                    }
                    if retyped.optionalLabels.contains(label) {
                        if argument.expression.is(NilLiteralExprSyntax.self) { continue }
                        let callee = argument.expression.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedText
                            ?? argument.expression.trimmedText
                        guard callee == legacyName || callee.hasPrefix(legacyName + ".") else {
                            throw Refusal(
                                .cannotApply, at: file.sourceLocation(of: argument),
                                "\(text) is passed for \(label): \(legacyName)?, which becomes the shim, and whether "
                                    + "it is optional is not known",
                                fix: "pass \(wrapperType)(…) or nil there, then run again")
                        }
                    }
                    edits.replace(argument.expression, in: file, with: wrapped(argument.expression))
                }
            }
        }
    }
}
#endif
