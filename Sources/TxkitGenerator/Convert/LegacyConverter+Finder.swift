#if Txkit
import SwiftSyntax

/// The finder itself: its members that take a legacy transaction take a
/// TransactionKit transaction, and rebuild the legacy one inside.
extension LegacyConverter {
    /// The finder's own functions (private ones too), by the location of
    /// their names, in its declarations that a person wrote.
    var finderFunctions: [String: (FunctionDeclSyntax, SourceFile)] {
        var found: [String: (FunctionDeclSyntax, SourceFile)] = [:]
        func collect(_ items: MemberBlockItemListSyntax, _ file: SourceFile) {
            for item in items {
                if let function = item.decl.as(FunctionDeclSyntax.self) {
                    found[file.location(of: function.name)] = (function, file)
                } else if let ifConfig = item.decl.as(IfConfigDeclSyntax.self) {
                    for clause in ifConfig.clauses {
                        if case let .decls(nested)? = clause.elements { collect(nested, file) }
                    }
                }
            }
        }
        for declaration in legacy.declarations where declaration.file.generatedBy == nil {
            collect(declaration.memberBlock.members, declaration.file)
        }
        return found
    }

    /// Decides, for each member that takes a legacy transaction, the
    /// transaction it takes; members it cannot convert are blockers.
    mutating func collectConvertedMembers(uses: [(ConsumerUse, IndexedMember)]) {
        let functions = finderFunctions
        let bodies = LegacyBodies(legacy: legacy, isLegacyTransaction: isLegacyTransaction)
        for member in legacy.members {
            guard case .function = member.kind else { continue }
            let indices = member.parameters.indices.filter { isLegacyTransaction(member.parameters[$0].type) }
            guard let parameterIndex = indices.first else { continue }
            guard let (function, file) = functions[member.location] else { continue }
            let parameter = member.parameters[parameterIndex]
            let name = "\(legacy.name).\(member.displayName)"
            if indices.count > 1 {
                blockers.append(block(
                    member.declaration, "\(name) takes \(indices.count) legacy transactions",
                    fix: "give it one, then run again"))
                continue
            }
            if parameter.isInout || parameter.isVariadic || parameter.defaultValue != nil || parameter.shape.isOptional {
                blockers.append(block(
                    member.declaration,
                    "\(name) takes its \(parameter.type) "
                        + (parameter.defaultValue.map { "with a default value (`= \($0)`)" } ?? "optionally or inout")
                        + ", so it runs outside its callers' transaction where they leave it out, and a TransactionKit "
                        + "transaction is never optional",
                    fix: "make the parameter required, then run again"))
                continue
            }
            if let throwsClause = member.throwsClause, throwsClause != "throws" {
                blockers.append(block(
                    member.declaration,
                    "\(name) is `\(throwsClause)`, but the bridge that rebuilds its legacy transaction throws any error",
                    fix: "make it `throws`, then run again"))
                continue
            }
            if let objc = Self.objectiveCAttribute(of: function, in: legacy) {
                blockers.append(block(
                    member.declaration,
                    "\(name) is exposed to Objective-C (\(objc)), which cannot pass a DBReadTransaction or "
                        + "DBWriteTransaction (Swift classes)",
                    fix: "keep it on the Shortcut Way, or give the Objective-C callers a Swift entry point first"))
                continue
            }
            if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) }) {
                blockers.append(block(
                    member.declaration, "\(name) overrides a superclass member", fix: "convert the superclass first"))
                continue
            }
            if let constraint = ShimPlan.excludedConstraint(of: member, in: legacy, configuration: configuration) {
                blockers.append(block(
                    member.declaration,
                    "\(name) constrains its generic parameters with \(constraint), which may come from a module the "
                        + "protocol and its mock leave out (excludedImports: "
                        + "\(configuration.excludedImports.joined(separator: ", "))): the protocol would not compile",
                    fix: "add a non-generic overload for the types its callers use, call that, then run again"))
                continue
            }
            if statics == .instance, member.isStatic, legacy.kind == .enum || !legacy.hasArgumentlessInit {
                blockers.append(block(
                    member.declaration,
                    "--statics instance gives \(legacy.name) a shared instance, but "
                        + (legacy.kind == .enum ? "it is an enum" : "it has no init()"),
                    fix: "use --statics keep"))
                continue
            }
            guard let legacyTransaction = configuration.legacyTransaction(forParameterType: parameter.type) else { continue }
            let memberUses = uses.filter { $0.1.location == member.location }.map(\.0)
            let decision = ShimPlan.transactionDecision(
                of: member, parameterType: parameter.type, in: legacy, uses: memberUses,
                configuration: configuration, bodies: bodies)
            let taken = Set(function.tokens(viewMode: .sourceAccurate).map(\.text))
            let transactionName = ["tx", "dbTransaction", "transactionKitTransaction"].first { !taken.contains($0) }
                ?? "transactionKitTransaction"
            converted.append(ConvertedMember(
                member: member, function: function, file: file, parameterIndex: parameterIndex,
                kind: decision.kind, decision: decision, legacyName: parameter.name,
                transactionName: transactionName, legacyTransaction: legacyTransaction))
        }
    }

    /// `@objc` (or `@IBAction`, or the type's `@objcMembers`) when the
    /// member is exposed to Objective-C.
    static func objectiveCAttribute(of function: FunctionDeclSyntax, in legacy: IndexedType) -> String? {
        let names = function.attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedText }
        if let found = names.first(where: { $0 == "objc" || $0 == "IBAction" }) { return "@" + found }
        if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate) }) {
            return nil
        }
        for declaration in legacy.declarations where !declaration.isExtension {
            let attributes = declaration.memberBlock.parent?.asProtocol((any WithAttributesSyntax).self)?.attributes
            if attributes?.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "objcMembers" }) == true {
                return "@objcMembers on \(legacy.name)"
            }
        }
        return nil
    }

    /// The converted member a call inside the finder means: unqualified,
    /// through `self`, `Self` or the finder's name.
    func convertedMember(calledBy call: FunctionCallExprSyntax) -> ConvertedMember? {
        let name: String
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let access = call.calledExpression.as(MemberAccessExprSyntax.self),
                  let base = access.base?.trimmedText,
                  ["self", "Self", legacy.name, "\(legacy.name).shared", "Self.shared"].contains(base) {
            name = access.declName.baseName.text
        } else {
            return nil
        }
        let labels = call.arguments.map { $0.label?.text } + (call.trailingClosure == nil ? [] : [nil])
            + call.additionalTrailingClosures.map { $0.label.text }
        return converted.first { candidate in
            candidate.member.name == name
                && CallMatcher(member: candidate.member, shimForm: false, isLegacyTransaction: isLegacyTransaction)
                    .argumentParameters(labels) != nil
        }
    }

    /// Edits the finder's declarations: signatures, the legacy transaction
    /// rebuilt inside, calls between its members, static modifiers.
    mutating func convertFinderDeclarations() {
        // Calls from one member to another pass the TransactionKit
        // transaction on; their references to the legacy name go.
        var replaced: [String: Set<Int>] = [:]
        for declaration in legacy.declarations where declaration.file.generatedBy == nil {
            let calls = CallCollector(viewMode: .sourceAccurate)
            calls.walk(declaration.memberBlock)
            for call in calls.calls {
                guard let target = convertedMember(calledBy: call) else { continue }
                let enclosing = call.enclosingFunction
                let caller = enclosing.flatMap { function in
                    converted.first { $0.function.id == function.id }
                }
                if statics == .instance, target.member.isStatic,
                   let access = call.calledExpression.as(MemberAccessExprSyntax.self), let base = access.base,
                   [legacy.name, "Self"].contains(base.trimmedText) {
                    edits.replace(base, in: declaration.file, with: "\(base.trimmedText).shared")
                }
                guard let argument = transactionArgument(of: call, for: target) else {
                    blockers.append(block(
                        declaration.file.sourceLocation(of: call),
                        "this call passes the \(target.member.parameters[target.parameterIndex].type) of "
                            + "\(legacy.name).\(target.member.displayName) in a trailing closure or not at all",
                        fix: "pass it as an argument, then run again"))
                    continue
                }
                if let caller, let reference = argument.expression.as(DeclReferenceExprSyntax.self),
                   reference.baseName.text == caller.legacyName {
                    replaced[caller.member.location, default: []].insert(reference.position.utf8Offset)
                    replaceArgument(argument, with: caller.transactionName, in: declaration.file)
                    addTry(to: call, target: target, in: declaration.file)
                    continue
                }
                passTransaction(argument, call: call, target: target, file: declaration.file)
            }
        }
        for member in converted {
            convertSignature(member, replacedReferences: replaced[member.member.location] ?? [])
        }
        addSharedInstance()
    }

    /// With `--statics instance`, the instance that callers of the former
    /// static members go through: `static let shared = D()`, first in the
    /// finder's declaration.
    private mutating func addSharedInstance() {
        guard statics == .instance, converted.contains(where: \.member.isStatic),
              let declaration = legacy.declarations.first(where: { !$0.isExtension && $0.file.generatedBy == nil })
        else { return }
        if let existing = legacy.allMembers.first(where: { $0.name == "shared" }) {
            blockers.append(block(
                existing.declaration,
                "--statics instance declares \(legacy.name).shared, and \(legacy.name) has a member of that name already",
                fix: "use --statics keep, or rename it"))
            return
        }
        let indentation = declaration.memberBlock.members.first.map { $0.indentation }
            ?? declaration.memberBlock.indentation + "    "
        let modifier = min(legacy.accessLevel, .public).modifier
        edits.insert(
            "\n\(indentation)/// The instance through which callers reach what were static members.\n"
                + "\(indentation)\(modifier)static let shared = \(legacy.qualifiedName)()\n",
            at: declaration.memberBlock.leftBrace.endPositionBeforeTrailingTrivia, in: declaration.file)
    }

    /// The argument of `call` that fills `target`'s legacy transaction.
    func transactionArgument(of call: FunctionCallExprSyntax, for target: ConvertedMember) -> LabeledExprSyntax? {
        let labels = call.arguments.map { $0.label?.text } + (call.trailingClosure == nil ? [] : [nil])
            + call.additionalTrailingClosures.map { $0.label.text }
        let matcher = CallMatcher(member: target.member, shimForm: false, isLegacyTransaction: isLegacyTransaction)
        let arguments = Array(call.arguments)
        guard let filled = matcher.argumentParameters(labels),
              let position = filled.firstIndex(of: target.parameterIndex), position < arguments.count
        else { return nil }
        return arguments[position]
    }

    /// Replaces an argument, label included, by `text` (the converted
    /// parameter is unlabeled).
    mutating func replaceArgument(_ argument: LabeledExprSyntax, with text: String, in file: SourceFile) {
        edits.add(TextEdit(
            start: argument.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: argument.expression.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: text), in: file)
    }

    /// Adds `try` before a call of a member that did not throw before.
    mutating func addTry(to call: FunctionCallExprSyntax, target: ConvertedMember, in file: SourceFile) {
        guard target.member.throwsClause == nil, !call.isCoveredByTry else { return }
        if call.isInNonThrowingClosure {
            blockers.append(block(
                file.sourceLocation(of: call),
                "this call is in a closure that does not throw, and \(legacy.name).\(target.member.name) throws once "
                    + "converted (its bridge can)",
                fix: "move the call out of the closure or let the closure throw, then run again"))
            return
        }
        if call.isInNonThrowingFunction, !isInConvertedMember(call) {
            blockers.append(block(
                file.sourceLocation(of: call),
                "this call is in a function that does not throw, and \(legacy.name).\(target.member.name) throws once "
                    + "converted (its bridge can)",
                fix: "let the function throw (or handle the error around the call), then run again"))
            return
        }
        edits.insert("try ", at: call.tryPosition, in: file)
    }

    /// Whether `call` is in a member that this conversion makes throw.
    private func isInConvertedMember(_ call: FunctionCallExprSyntax) -> Bool {
        guard let function = call.ancestor(FunctionDeclSyntax.self, below: Syntax(call.root)) else { return false }
        return converted.contains { $0.function.id == function.id && $0.member.throwsClause == nil }
    }

    /// The signature and the first statement of one converted member.
    private mutating func convertSignature(_ member: ConvertedMember, replacedReferences: Set<Int>) {
        let function = member.function
        let file = member.file
        let parameters = Array(function.signature.parameterClause.parameters)
        let parameter = parameters[member.parameterIndex]
        edits.add(TextEdit(
            start: parameter.firstName.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: parameter.type.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: "_ \(member.transactionName): \(member.kind)"), in: file)
        if member.member.throwsClause == nil {
            if let asyncSpecifier = function.signature.effectSpecifiers?.asyncSpecifier {
                edits.insert(" throws", at: asyncSpecifier.endPositionBeforeTrailingTrivia, in: file)
            } else {
                edits.insert(" throws", at: function.signature.parameterClause.endPositionBeforeTrailingTrivia, in: file)
            }
        }
        if statics == .instance, member.member.isStatic,
           let modifier = function.modifiers.first(where: {
               $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
           }) {
            edits.add(TextEdit(
                start: modifier.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: modifier.endPosition.utf8Offset, replacement: ""), in: file)
        }
        edits.need(["TransactionKit"], in: file)
        guard let body = function.body else { return }
        let counter = ReferenceCounter(name: member.legacyName)
        counter.walk(body)
        guard !counter.positions.subtracting(replacedReferences).isEmpty else { return }
        let bridge = member.legacyTransaction.bridge.replacingOccurrences(of: "$tx", with: member.transactionName)
        let indentation = body.statements.first.map { $0.indentation }
            ?? function.indentation + "    "
        edits.insert("\n\(indentation)let \(member.legacyName) = \(bridge)", at: body.leftBrace.endPositionBeforeTrailingTrivia, in: file)
        // A body that was one expression returned it implicitly; with a
        // statement before it, it must say `return`.
        if member.member.resultType != nil, body.statements.count == 1, let only = body.statements.first,
           only.item.is(ExprSyntax.self) {
            edits.insert("return ", at: only.positionAfterSkippingLeadingTrivia, in: file)
        }
        edits.need(configuration.wrapperImports, in: file)
    }

}
#endif
