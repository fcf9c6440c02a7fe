#if Txkit
import SwiftSyntax

/// A consumer method that does not throw, and whose call of a legacy
/// member that does not throw goes through a shim that does (the bridge
/// can: ``ShimMember/shimThrowsClause``): `--apply` marks the method
/// `throws` and adds `try` to each of its callers in the sources, so that
/// an error of the bridge reaches the callers' own error handling, as
/// every other error of theirs does. Nothing is caught or dropped on the
/// way.
///
/// It refuses, naming the place, where a caller could not simply add
/// `try`, or might be missed: a method that others may call from outside
/// the sources (`public`, `open`, `package`, Objective-C), override
/// (`override`, a class with subclasses) or that may satisfy a protocol
/// requirement (a protocol of the sources that declares that name, or an
/// inherited type the sources do not declare); a method with defaulted
/// parameters, or referenced without being called; a caller in a
/// function or closure that does not throw, at top level or in a `defer`,
/// or whose receiver's type the sources do not tell when another function
/// has the same name and labels.
extension ConsumerRewriter {
    /// A consumer method that must throw once its uses go through the shim.
    struct ThrowingMethod {
        var function: FunctionDeclSyntax
        var file: SourceFile
        /// The first use that needs it, for messages.
        var use: ConsumerUse

        var name: String { function.name.text }

        /// The method's argument labels, `nil` for `_`.
        var labels: [String?] {
            function.argumentLabels
        }
    }

    /// Types a consumer may inherit from without the sources declaring
    /// them, whose requirements are no method a consumer would make throw
    /// (`Equatable`'s `==`, `Hashable`'s `hash(into:)`…).
    static let inheritedWithoutMethodRequirements: Set<String> = [
        "Sendable", "@unchecked Sendable", "AnyObject", "Equatable", "Hashable", "Comparable", "Identifiable",
        "Codable", "Encodable", "Decodable", "CustomStringConvertible", "CustomDebugStringConvertible",
        "ObservableObject", "NSObject",
    ]

    /// Notes that the function around `node` must throw for `use`, or
    /// refuses when it is not a method (an initializer, an accessor).
    func requireThrowing(
        around node: Syntax, for use: ConsumerUse, legacyMember: String, methods: inout [ThrowingMethod]
    ) throws {
        var current = node.parent
        while let candidate = current {
            if let function = candidate.as(FunctionDeclSyntax.self) {
                if !methods.contains(where: { $0.function.id == function.id }) {
                    methods.append(ThrowingMethod(function: function, file: use.file, use: use))
                }
                return
            }
            if candidate.is(InitializerDeclSyntax.self) || candidate.is(AccessorDeclSyntax.self)
                || candidate.is(MemberBlockItemSyntax.self) {
                break
            }
            current = candidate.parent
        }
        throw Refusal(
            .cannotApply, at: use.location,
            "\(use.text) is in an initializer or accessor that does not throw, and its shim throws where "
                + "\(legacyMember) does not (the bridge can): every use of it would change",
            fix: "mark it `throws` (or move the call into a method), then run again")
    }

    /// Marks each of `methods` `throws` and adds `try` to its callers in
    /// the sources, or refuses (see the extension's comment).
    func makeMethodsThrow(_ methods: [ThrowingMethod], edits: inout EditBuffer) throws {
        var refusals: [Refusal] = []
        var callerEdits: [(call: FunctionCallExprSyntax, file: SourceFile)] = []
        for method in methods {
            do {
                try requireOnlyCallersInTheSources(of: method)
                let methodIDs = Set(methods.map(\.function.id))
                for (call, file) in try callers(of: method) where !call.isCoveredByTry {
                    if let reason = call.whyTryIsNotAllowed(throwingFunctions: methodIDs) {
                        throw Refusal(
                            .cannotApply, at: method.use.location,
                            "\(method.use.text) is in \(consumerName).\(method.name), which does not throw, and its "
                                + "shim throws where \(legacyName).\(method.use.memberName) does not (the bridge can); "
                                + "--apply would mark \(method.name) `throws`, but its call at "
                                + "\(file.sourceLocation(of: call)) \(reason)",
                            fix: "mark that caller `throws` too (or the method, and `try` its callers), then run again")
                    }
                    callerEdits.append((call, file))
                }
            } catch let refusal as Refusal {
                refusals.append(refusal)
            }
        }
        if !refusals.isEmpty { throw refused(refusals) }
        for method in methods {
            let signature = method.function.signature
            if let async = signature.effectSpecifiers?.asyncSpecifier {
                edits.insert(" throws", at: async.endPositionBeforeTrailingTrivia, in: method.file)
            } else {
                edits.insert(" throws", at: signature.parameterClause.endPositionBeforeTrailingTrivia, in: method.file)
            }
        }
        for (call, file) in callerEdits {
            edits.insertOnce("try ", at: call.tryPosition, in: file)
        }
    }

    /// Refuses a method whose callers may lie outside the sources, or
    /// whose signature something else fixes.
    private func requireOnlyCallersInTheSources(of method: ThrowingMethod) throws {
        let refuse = { (reason: String) in
            Refusal(
                .cannotApply, at: method.use.location,
                "\(method.use.text) is in \(consumerName).\(method.name), which does not throw, and its shim throws "
                    + "where \(legacyName).\(method.use.memberName) does not (the bridge can): --apply would mark "
                    + "\(method.name) `throws` and `try` its callers, but \(reason)",
                fix: "mark it `throws` by hand (or move the call), then run again")
        }
        let function = method.function
        guard function.enclosingTypeName == consumerName else {
            throw refuse("it is not a method of \(consumerName)")
        }
        let modifiers = Set(function.modifiers.map(\.name.text))
        if let modifier = ["public", "open", "package", "override", "dynamic"].first(where: modifiers.contains) {
            throw refuse(modifier == "override" || modifier == "dynamic"
                ? "it is `\(modifier)`: its superclass's signature fixes whether it throws"
                : "it is `\(modifier)`: callers outside the sources would not get `try`")
        }
        let attributes = function.attributes.map { $0.trimmedText }
        if attributes.contains(where: { $0.hasPrefix("@objc") || $0.hasPrefix("@IB") || $0.hasPrefix("@_dynamicReplacement") })
            || plan.consumer.declarations.contains(where: { declaration in
                declaration.memberBlock.parent?.asProtocol((any WithAttributesSyntax).self)?.attributes
                    .contains { $0.trimmedText.hasPrefix("@objcMembers") } ?? false
            }) {
            throw refuse("it is exposed to Objective-C, whose callers the sources do not show")
        }
        if function.signature.parameterClause.parameters.contains(where: { $0.defaultValue != nil }) {
            throw refuse("it has defaulted parameters, which its callers may leave out")
        }
        guard let index = plan.consumer.index else { throw refuse("the sources are not indexed") }
        for inherited in plan.consumer.inherited {
            if let type = index.types[inherited] {
                if type.kind == .protocol, type.allMembers.contains(where: { $0.name == method.name }) {
                    throw refuse("the protocol \(inherited) declares `\(method.name)`, which \(consumerName) may satisfy with it")
                }
            } else if !Self.inheritedWithoutMethodRequirements.contains(inherited) {
                throw refuse("\(consumerName) inherits \(inherited), which the sources do not declare: it may "
                    + "require `\(method.name)`")
            }
        }
        if plan.consumer.kind == .class,
           let subclass = index.types.values.sorted(by: { $0.name < $1.name }).first(where: { $0.inherited.contains(consumerName) }) {
            throw refuse("\(subclass.name) inherits from \(consumerName), and may override it or be called through")
        }
        // `let f = manager.m` keeps the type `() -> R`, which `try` cannot fix.
        let references = FunctionReferenceFinder(name: method.name)
        for file in sourceFiles(mentioning: method.name) {
            references.walk(file)
        }
        let spelled = "(" + method.labels.map { ($0 ?? "_") + ":" }.joined() + ")"
        if let reference = references.references.first(where: { reference in
            let type = reference.reference.receiverType
            return type == consumerName || type == nil && reference.reference.trimmedText.hasSuffix(method.name + spelled)
        }) {
            throw refuse("it is referenced without being called at \(reference.file.location(of: reference.reference))")
        }
    }

    /// The calls of `method` in the sources that reach it: calls with its
    /// name and labels on a receiver of the consumer's type, or whose
    /// receiver's type is not known when no other function of the sources
    /// has that name and those labels.
    private func callers(of method: ThrowingMethod) throws -> [(FunctionCallExprSyntax, SourceFile)] {
        var calls: [(FunctionCallExprSyntax, SourceFile, String?)] = []
        var declarations = 0
        for file in sourceFiles(mentioning: method.name) {
            let finder = MethodCallFinder(name: method.name)
            finder.walk(file.tree)
            declarations += finder.declarations.filter { declaration in
                declaration.argumentLabels == method.labels
            }.count
            for call in finder.calls where call.arguments.map({ $0.label?.text }) == method.labels {
                calls.append((call, file, call.receiverType))
            }
        }
        if declarations > 1, let untyped = calls.first(where: { $0.2 == nil }) {
            throw Refusal(
                .cannotApply, at: method.use.location,
                "\(method.use.text) is in \(consumerName).\(method.name), which does not throw, and its shim throws "
                    + "where \(legacyName).\(method.use.memberName) does not (the bridge can): --apply would mark "
                    + "\(method.name) `throws` and `try` its callers, but \(declarations) functions of the sources have "
                    + "that name and those labels, and it cannot tell whose function the call at "
                    + "\(untyped.1.sourceLocation(of: untyped.0)) calls",
                fix: "mark it `throws` by hand (or move the call), then run again")
        }
        return calls.filter { $0.2 == nil || $0.2 == consumerName }.map { ($0.0, $0.1) }
    }

}
#endif
