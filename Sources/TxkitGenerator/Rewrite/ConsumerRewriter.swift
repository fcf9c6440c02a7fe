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
///   added where the shim throws and the legacy member did not, and a
///   method that did not throw is marked `throws`, its callers in the
///   sources `try` (ConsumerRewriter+ThrowingMethods).
///
/// - A parameter of a consumer method declared with the legacy type is
///   retyped to the shim, and what each caller in the sources passes for it
///   is wrapped in `C.Wrappers.D` (``retypeLegacyParameters(_:edits:)``).
///
/// Uses it cannot rewrite (through a local that holds something else than
/// a singleton or a temporary, a parameter used for more than calls, or a
/// transaction not built with the bridge) stop it with an error that names
/// the place, before anything is written; one run lists them all.
///
/// The rewriter is a value: each step is a function of it whose mutable
/// inputs and outputs are its parameters (the ``EditBuffer``, the
/// ``BridgeLocal``s read, the ``ThrowingMethod``s found, the
/// ``RetypedParameters``), called in order by ``rewrite()``.
struct ConsumerRewriter {
    let plan: ShimPlan
    let configuration: GeneratorConfiguration
    /// What replaces the consumer's legacy transaction arguments.
    let arguments: TransactionArgument

    init(plan: ShimPlan, configuration: GeneratorConfiguration) {
        self.plan = plan
        self.configuration = configuration
        arguments = TransactionArgument(configuration: configuration, consumer: plan.consumer)
    }

    /// The labels of the consumer's initializer parameters retyped to the
    /// shim, whose callers wrap what they pass.
    struct RetypedParameters {
        var labels: Set<String> = []
        /// Those that are optional (`store: Store?`).
        var optionalLabels: Set<String> = []
    }

    var consumerName: String { plan.consumer.name }
    var legacyName: String { plan.legacy.name }
    var shimType: String { GeneratedLayout.shimReference(consumer: consumerName, legacy: legacyName) }
    var wrapperType: String { GeneratedLayout.wrapperReference(consumer: consumerName, legacy: legacyName) }
    /// Whether the wrapper has `init()` (see ``ShimRenderer``).
    var wrapperHasEmptyInit: Bool {
        !plan.members.contains { !$0.legacy.isStatic } || plan.legacy.hasArgumentlessInit
    }
    var wrapperWrapsAnInstance: Bool { plan.members.contains { !$0.legacy.isStatic } }

    /// The edited files, in the order of the consumer's declarations;
    /// empty when every use already goes through the shim.
    ///
    /// - Throws: ``GeneratorError/refused(_:_:)`` with every place it
    ///   cannot rewrite; nothing is edited then.
    func rewrite() throws -> [ConsumerEdit] {
        do {
            return try rewriteOrRefuse()
        } catch let refusal as Refusal {
            throw refused([refusal])
        }
    }

    /// The refusal of this consumer's rewrite at `refusals`.
    func refused(_ refusals: [Refusal]) -> GeneratorError {
        GeneratorError.applyRefused(consumer: consumerName, legacy: legacyName, refusals)
    }

    private func rewriteOrRefuse() throws -> [ConsumerEdit] {
        let uses = plan.uses.filter(\.isThroughLegacyType)
        guard !uses.isEmpty else { return [] }
        var edits = EditBuffer()
        var bridgeLocals: [BridgeLocal] = []
        var throwingMethods: [ThrowingMethod] = []
        var retyped = RetypedParameters()
        // Every refusal is listed, not only the first: a person fixes
        // them all before the next run.
        var refusals: [Refusal] = []
        func refuse(_ body: () throws -> Void) throws {
            do {
                try body()
            } catch let refusal as Refusal {
                refusals.append(refusal)
            } catch let error as GeneratorError where !error.refusals.isEmpty {
                refusals += error.refusals
            }
        }
        let serviceLocals = serviceLocals(of: uses)
        // Parameters of the consumer's methods declared with the legacy
        // type are retyped to the shim, and their callers wrap what they pass.
        var refusedParameterUses: Set<Int> = []
        let parameters = legacyParameters(
            uses.filter { serviceLocals[$0.node.position.utf8Offset] == nil }, refusals: &refusals,
            refusedUses: &refusedParameterUses)
        let parameterUses = parameters.reduce(into: Set<Int>()) { $0.formUnion($1.uses) }
        let routable = Set(uses.filter { use in
            switch use.base {
            case .variable: serviceLocals[use.node.position.utf8Offset] != nil || parameterUses.contains(use.node.position.utf8Offset)
            case let .expression(text): isServiceExpression(text)
            case .type, .storedProperty: true
            }
        }.map(\.node.position.utf8Offset))
        let isRoutable = { (use: ConsumerUse) in routable.contains(use.node.position.utf8Offset) }
        for use in uses where !isRoutable(use) && !refusedParameterUses.contains(use.node.position.utf8Offset) {
            if let refusal = unroutedRefusal(use) { refusals.append(refusal) }
        }
        let stored = ConsumerScanner.storedProperties(
            of: plan.consumer.declarations, consumer: consumerName, legacy: legacyName
        ).filter(\.value).keys.sorted()
        // Uses through one singleton or temporary (`Legacy.shared`,
        // `Legacy.shared()`, `Legacy()`): the shim property's production
        // value wraps that very expression.
        var services = Set(uses.compactMap { use -> String? in
            if case let .expression(text) = use.base, isServiceExpression(text) { return text }
            return serviceLocals[use.node.position.utf8Offset]?.expression
        })
        // Several expressions of a type whose instances are
        // interchangeable: one shim property stands for them all.
        if stored.isEmpty, let service = interchangeableService(of: services) {
            services = [service]
        }
        if let service = services.first, services.count > 1 || !stored.isEmpty {
            let through = services.count > 1 ? "several expressions" : "`\(service)` and a stored property"
            refusals.append(Refusal(
                .cannotApply,
                at: uses.first { if case .expression = $0.base { true } else { false } }?.location ?? plan.consumer.location,
                "\(consumerName) reaches \(legacyName) through \(through) "
                    + "(\((services.sorted() + stored).joined(separator: ", "))), and --apply gives it one shim property",
                fix: "use one of them everywhere, then run again"))
            throw refused(refusals)
        }
        // A consumer that says `Sendable` cannot hold the shim of a legacy
        // type that is not (its uses were through locals, singletons or
        // the type): the property would break its conformance.
        // Uses through parameters only: the parameters take the shim, and
        // the consumer holds no shim property.
        let throughParametersOnly = uses.allSatisfy { parameterUses.contains($0.node.position.utf8Offset) }
        // Unless its wrapper makes an instance per call, as the consumer
        // did (ShimPlan.makesLegacyPerCall): then the shim is Sendable.
        let perCall = plan.makesLegacyPerCall
        if perCall, let refusal = perCallRefusal(parameters: parameters, uses: uses) {
            refusals.append(refusal)
            throw refused(refusals)
        }
        if stored.isEmpty, !throughParametersOnly, !perCall, !plan.isLegacySendable,
           plan.consumer.inherited.contains("Sendable") {
            refusals.append(Refusal(
                .cannotApply, at: plan.consumer.location,
                "\(consumerName) is Sendable and \(legacyName) is not, so neither is its shim: the shim property "
                    + "--apply would add would break \(consumerName)'s Sendable conformance",
                fix: "declare \(legacyName) Sendable (or @unchecked Sendable if it guards its state), then run again"))
            throw refused(refusals)
        }
        var property = SwiftText.lowercasedFirst(legacyName)
        try refuse {
            switch stored.count {
            case 0 where throughParametersOnly:
                break
            case 0:
                if let service = services.first, isOwnImmutableChain(service) {
                    try addStoredProperty(property, fromOwnChain: service, edits: &edits)
                } else {
                    try addStoredProperty(
                        property, production: services.first.map { perCall ? perCallProduction($0) : "\(wrapperType)(\($0))" },
                        edits: &edits)
                }
            case 1:
                property = stored[0]
                retyped = try retypeStoredProperty(property, edits: &edits)
            default:
                throw Refusal(
                    .cannotApply, at: plan.consumer.location,
                    "\(consumerName) has several stored properties of type \(legacyName) "
                        + "(\(stored.joined(separator: ", "))), and --apply gives it one shim property",
                    fix: "keep one of them, or edit the uses by hand, then run again")
            }
        }
        for use in uses where isRoutable(use) {
            if let (_, local) = serviceLocals[use.node.position.utf8Offset],
               let reference = use.node.base?.as(DeclReferenceExprSyntax.self) {
                edits.replace(reference, in: use.file, with: "self.\(property)")
                BridgeLocal.record(reference, to: local, in: &bridgeLocals)
            }
            try refuse {
                try route(
                    use, through: property, edits: &edits, bridgeLocals: &bridgeLocals, throwingMethods: &throwingMethods)
            }
        }
        if refusals.isEmpty {
            try refuse { try makeMethodsThrow(throwingMethods, edits: &edits) }
        }
        if !refusals.isEmpty { throw refused(refusals) }
        retypeLegacyParameters(parameters, edits: &edits)
        BridgeLocal.removeUnread(bridgeLocals, edits: &edits)
        try updateInitializerCallers(of: retyped, edits: &edits)
        // The lookup bridge names SQLiteDB: its module is imported.
        edits.need(["TransactionKitSQLite"], inFilesWithAnEdit: { $0.replacement.contains("SQLiteDB.") })
        // The consumer's files first, then the callers' files.
        return try edits.consumerEdits(
            in: plan.consumer.files + edits.paths.filter { !plan.consumer.files.contains($0) }.sorted())
    }

    /// The locals that hold a singleton or a temporary of the legacy type
    /// (`let store = Store()`, `let store = Store.shared`), by the offset of
    /// each use through them: such a local is that expression, so the
    /// consumer holds it in its shim property, the uses go through the
    /// property and the local goes.
    private func serviceLocals(of uses: [ConsumerUse]) -> [Int: (expression: String, local: BridgeLocal)] {
        var found: [Int: (expression: String, local: BridgeLocal)] = [:]
        for use in uses {
            guard case let .variable(name) = use.base,
                  let local = BridgeLocal(named: name, before: use.node, file: use.file),
                  let binding = local.item.item.as(VariableDeclSyntax.self)?.bindings.first,
                  binding.typeAnnotation.map({ $0.type.trimmedText == legacyName }) ?? true,
                  let value = binding.initializer?.value, isServiceExpression(value.trimmedText)
            else { continue }
            found[use.node.position.utf8Offset] = (value.trimmedText, local)
        }
        return found
    }

    /// Why `use`, which is not routable, cannot be routed: it goes through
    /// a local or parameter, or an expression that is no singleton or
    /// temporary.
    private func unroutedRefusal(_ use: ConsumerUse) -> Refusal? {
        switch use.base {
        case let .variable(name):
            return Refusal(
                .cannotApply, at: use.location,
                "\(use.text) goes through `\(name)`, a local or parameter of type \(legacyName), and --apply "
                    + "routes static uses, stored properties and locals that hold a singleton or a temporary "
                    + "(`let x = \(legacyName)()`)",
                fix: "make it a stored property (or edit this use by hand), then run again")
        case let .expression(text) where !isServiceExpression(text):
            return Refusal(
                .cannotApply, at: use.location,
                "\(use.text) reaches \(legacyName) through `\(text)` (a singleton, a temporary, a chain or an "
                    + "inferred property), and --apply routes only static uses and stored properties declared "
                    + "with \(legacyName)",
                fix: "edit this use by hand, then run again")
        default:
            return nil
        }
    }

    /// Why a wrapper that makes the legacy instance per call cannot stand
    /// for the consumer's uses, or `nil`: a method parameter of the legacy
    /// type (its callers pass an instance, which a `Sendable` wrapper
    /// cannot hold), or a property the consumer writes (each call would
    /// write a new instance's).
    func perCallRefusal(parameters: [LegacyParameter], uses: [ConsumerUse]) -> Refusal? {
        let reason = "\(consumerName) is Sendable and \(legacyName) is not, so its shim's wrapper makes a "
            + "\(legacyName) for each call, as \(consumerName) made one where it used it"
        let declareSendable = "declare \(legacyName) Sendable (or @unchecked Sendable if it guards its state), then run again"
        if let parameter = parameters.first {
            return Refusal(
                .cannotApply, at: parameter.file.sourceLocation(of: parameter.parameter),
                "\(reason); but \(consumerName).\(parameter.function.name.text) takes one as its parameter "
                    + "`\(parameter.name)`, which such a wrapper cannot hold",
                fix: "take it through a local or a temporary, or " + declareSendable)
        }
        if let written = plan.members.first(where: \.isWritten) {
            return Refusal(
                .cannotApply, at: uses.first { $0.memberName == written.legacy.name }?.location ?? plan.consumer.location,
                "\(reason); but it writes \(legacyName).\(written.legacy.name), which would be written on a new "
                    + "instance each time",
                fix: declareSendable)
        }
        return nil
    }
}

#endif
