#if Txkit
import SwiftSyntax

/// The shim property `--apply` routes uses through: the consumer's stored
/// property of the legacy type retyped, or one added with an initializer
/// parameter; what it holds in production (a wrapper of the singleton or
/// temporary the consumer used). The callers of the initializers are in
/// `+InitializerCallers`, a `weak var`'s replacement in `+WeakProperty`.
extension ConsumerRewriter {
    /// Whether `text` names one instance the consumer can hold for good: a
    /// singleton or a temporary of the legacy type (`Legacy.shared`,
    /// `Legacy.shared()`, `Legacy()`), with no argument, or a chain of
    /// stored `let`s to it from a type or from the consumer's own `let`.
    func isServiceExpression(_ text: String) -> Bool {
        if wrapperWrapsAnInstance, isImmutableChain(text) || isOwnImmutableChain(text) { return true }
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
        guard links.count >= 2, let index = plan.consumer.index, let type = index.types[links[0]] else { return false }
        return isStoredLetChain(links.dropFirst(), from: type, firstIsStatic: true, in: index)
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
                        try requireNameableParameter(of: initializers, name: name, file: declaration.file)
                        try addInitializerParameter(
                            name, type: shimType, defaultValue: " = \(wrapped(value))", assigning: name,
                            to: initializers, in: declaration.file, edits: &edits)
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
    /// `nil` when the initializer already has a parameter of that name,
    /// overrides or satisfies another declaration (`override`, `required`),
    /// whose signature a new parameter would change, or is public while the
    /// shim is not (a public initializer's parameter cannot name it).
    private func injectionParameter(
        _ name: String, for initializer: InitializerDeclSyntax, in file: SourceFile, edits: inout EditBuffer
    ) -> String? {
        let parameters = initializer.signature.parameterClause.parameters
        guard !parameters.contains(where: { $0.internalName == name || $0.firstName.text == name }),
              !initializer.modifiers.contains(where: { ["override", "required"].contains($0.name.text) }),
              !(plan.consumer.accessLevel.isPublic && initializer.isPublic && !shimAccess.isPublic)
        else { return nil }
        addParameter("\(name): \(shimType)? = nil", to: initializer, in: file, edits: &edits)
        return name
    }

    /// Adds the stored shim property `name` to the consumer's declaration,
    /// and to each designated initializer a parameter that fills it.
    ///
    /// - Parameters:
    ///   - production: The production value of the initializer's new
    ///     parameter (`Wrappers.Legacy(Legacy.shared)` for uses through a
    ///     singleton); by default the wrapper's own `init()`, if it has one.
    ///   - optionalDefault: Instead, the value the body assigns when the
    ///     new parameter, optional and `nil` by default, is `nil`: a value
    ///     that needs `self` (``addStoredProperty(_:fromOwnChain:edits:)``).
    func addStoredProperty(
        _ name: String, production: String? = nil, optionalDefault: String? = nil, edits: inout EditBuffer
    ) throws {
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
        try requireNameableParameter(of: initializers, name: name, file: file)

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
        if let optionalDefault {
            try addInitializerParameter(
                name, type: shimType + "?", defaultValue: " = nil", assigning: "\(name) ?? \(optionalDefault)",
                to: initializers, in: file, edits: &edits)
            return
        }
        let defaultValue = production.map { " = \($0)" } ?? (wrapperHasEmptyInit ? " = \(wrapperType)()" : "")
        try addInitializerParameter(
            name, type: shimType, defaultValue: defaultValue, assigning: name, to: initializers, in: file, edits: &edits)
    }

    /// The access of the shim protocol and its wrapper: the configured
    /// one, at most the consumer's.
    var shimAccess: AccessLevel { min(configuration.accessLevel, plan.consumer.accessLevel) }

    /// Refuses a public initializer that would get a parameter of the shim
    /// (or whose default names the wrapper) when the shim is not public.
    ///
    /// A public initializer's parameter types, and its default arguments,
    /// which are compiled into its callers, may name only public
    /// declarations: a package or internal shim there would not build.
    private func requireNameableParameter(
        of initializers: [InitializerDeclSyntax], name: String, file: SourceFile
    ) throws {
        guard plan.consumer.accessLevel.isPublic, !shimAccess.isPublic,
              let exposed = initializers.first(where: \.isPublic)
        else { return }
        throw Refusal(
            .cannotApply, at: file.sourceLocation(of: exposed),
            "this initializer of \(consumerName) is public, and --apply would give it a `\(name)` parameter of "
                + "\(shimType), which is \(shimAccess) like its wrapper: a public initializer's parameter and default "
                + "value cannot name them",
            fix: "set \"accessLevel\": \"public\" in txkit.json, or make the initializer package or internal, then "
                + "run again")
    }

    /// Gives each initializer a `name: type = default` parameter and
    /// `self.name = value` after the assignments that open its body.
    private func addInitializerParameter(
        _ name: String, type: String, defaultValue: String, assigning value: String,
        to initializers: [InitializerDeclSyntax], in file: SourceFile, edits: inout EditBuffer
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
            let parameter = "\(name): \(type)\(defaultValue)"
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
            edits.insert("\n\(indent)self.\(name) = \(value)\(closing)", at: position, in: file)
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
}
#endif
