#if Txkit
import SwiftSyntax

/// The names a piece of code reads from around it and leaves to the code
/// after it, which become the parameters and results of the requirement it
/// is moved into.
struct FreeVariables {
    /// A name the code reads that is declared before it.
    struct Input {
        var name: String
        var declaration: LocalDeclaration?
        /// A stored or computed property of the consumer (`x` or `self.x`).
        var isConsumerProperty: Bool
        /// How the code writes it, if it does.
        var writes: [Write] = []
    }

    /// A way code writes a variable.
    enum Write {
        /// `x = …`, `x.y += …`, `x[i] = …`.
        case assignment
        /// `&x`.
        case `inout`
        /// `x.method(…)`, which may be `mutating`.
        case receiver(FunctionCallExprSyntax)
    }

    /// Inputs, in the order the code first names them.
    var inputs: [Input] = []
    /// Locals the code declares that code after it reads.
    var outputs: [LocalDeclaration] = []
    /// Why the code cannot leave the consumer, if it cannot: it passes
    /// `self` on, or `return`s, `break`s or `continue`s out of itself.
    var obstacle: String?
    /// Calls of the consumer's own instance methods (`helper(x)`,
    /// `self.helper(x)`): the requirement takes them as closures.
    var callbacks: [FunctionCallExprSyntax] = []

    /// Reads `nodes` (consecutive statements, or one expression) of `scope`,
    /// where `legacyName` (the legacy transaction) is not a variable: the
    /// wrapper declares it. `consumer` is the type whose code it is.
    init(
        of nodes: [Syntax], in scope: Syntax, legacyName: String, legacyDeclaration: Syntax?,
        consumer: IndexedType, allowsReturn: Bool, excluding excluded: [Syntax] = []
    ) {
        guard let first = nodes.first, let last = nodes.last else { return }
        let start = first.positionAfterSkippingLeadingTrivia
        let end = last.endPositionBeforeTrailingTrivia
        func isInside(_ node: some SyntaxProtocol) -> Bool {
            node.positionAfterSkippingLeadingTrivia >= start && node.endPositionBeforeTrailingTrivia <= end
        }
        var seen: Set<String> = []
        for node in nodes {
            for reference in node.descendants(DeclReferenceExprSyntax.self) {
                let name = reference.baseName.text
                if Self.isMemberName(reference) { continue }
                if excluded.contains(where: { LocalDeclaration.isInside(reference, $0) }) { continue }
                if name == legacyName, let declaration = LocalScope.declarations(visibleAt: reference)[name],
                   declaration.node.id == legacyDeclaration?.id {
                    continue
                }
                if name == "self" {
                    if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.base?.id == reference.id {
                        let property = member.declName.baseName.text
                        if Self.isProperty(property, of: consumer) {
                            if seen.insert(property).inserted {
                                inputs.append(Input(name: property, declaration: nil, isConsumerProperty: true))
                            }
                            if let write = Self.write(of: Syntax(member)),
                               let index = inputs.firstIndex(where: { $0.name == property }) {
                                inputs[index].writes.append(write)
                            }
                            continue
                        }
                        if let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id {
                            callbacks.append(call)
                            continue
                        }
                    }
                    obstacle = obstacle ?? "it passes `self` on"
                    continue
                }
                if let declaration = LocalScope.declarations(visibleAt: reference)[name] {
                    if isInside(declaration.node) { continue }
                    if seen.insert(name).inserted {
                        inputs.append(Input(name: name, declaration: declaration, isConsumerProperty: false))
                    }
                    if let write = Self.write(of: Syntax(reference)), let index = inputs.firstIndex(where: { $0.name == name }) {
                        inputs[index].writes.append(write)
                    }
                    continue
                }
                if Self.isProperty(name, of: consumer) {
                    if seen.insert(name).inserted {
                        inputs.append(Input(name: name, declaration: nil, isConsumerProperty: true))
                    }
                    if let write = Self.write(of: Syntax(reference)), let index = inputs.firstIndex(where: { $0.name == name }) {
                        inputs[index].writes.append(write)
                    }
                    continue
                }
                if Self.isInstanceMethod(name, of: consumer),
                   let call = reference.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == reference.id {
                    callbacks.append(call)
                }
            }
            // `if let x`, `guard let x`: a read of the `x` declared before.
            for binding in node.descendants(OptionalBindingConditionSyntax.self) where binding.initializer == nil {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let declaration = LocalScope.declarations(visibleAt: binding)[name], !isInside(declaration.node),
                      seen.insert(name).inserted
                else { continue }
                inputs.append(Input(name: name, declaration: declaration, isConsumerProperty: false))
            }
            if !allowsReturn, let exit = Self.exit(in: node) {
                obstacle = obstacle ?? "it leaves the code around it (`\(exit)`)"
            }
        }
        // Locals declared inside that code after the nodes reads.
        var outputNames: Set<String> = []
        for reference in scope.descendants(DeclReferenceExprSyntax.self)
        where reference.positionAfterSkippingLeadingTrivia >= end && !Self.isMemberName(reference) {
            let name = reference.baseName.text
            guard let declaration = LocalScope.declarations(visibleAt: reference)[name], isInside(declaration.node),
                  outputNames.insert(name).inserted
            else { continue }
            outputs.append(declaration)
        }
    }

    /// `x` in `a.x`: a member's name, not a variable.
    static func isMemberName(_ reference: DeclReferenceExprSyntax) -> Bool {
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { return true }
        return false
    }

    static func isProperty(_ name: String, of consumer: IndexedType) -> Bool {
        ConsumerSymbols(consumer).isInstanceProperty(name)
            || consumer.allMembers.contains { $0.name == name && $0.kind != .function && !$0.isStatic }
    }

    static func isInstanceMethod(_ name: String, of consumer: IndexedType) -> Bool {
        ConsumerSymbols(consumer).isInstanceMethod(name)
            || consumer.allMembers.contains { $0.name == name && $0.kind == .function && !$0.isStatic }
    }

    /// How the code writes what `node` names, if it does: assigns it or a
    /// part of it (`x = `, `x.y += `, `x[i] = `), passes it `inout` (`&x`),
    /// or calls a method on it (which may be `mutating`).
    static func write(of node: Syntax) -> Write? {
        var current = node
        while let parent = current.parent {
            if parent.is(InOutExprSyntax.self) { return .inout }
            if let member = parent.as(MemberAccessExprSyntax.self), member.base?.id == current.id {
                if let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id {
                    if current.id == node.id { return .receiver(call) }
                    return mutatingMethods.contains(member.declName.baseName.text) ? .assignment : nil
                }
                current = parent
                continue
            }
            if let subscriptCall = parent.as(SubscriptCallExprSyntax.self), subscriptCall.calledExpression.id == current.id {
                current = parent
                continue
            }
            if let optional = parent.as(OptionalChainingExprSyntax.self) {
                current = Syntax(optional)
                continue
            }
            if let list = parent.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                if let position = elements.firstIndex(where: { $0.id == current.id }), position + 1 < elements.count {
                    let next = elements[position + 1]
                    if next.is(AssignmentExprSyntax.self) { return .assignment }
                    if let op = next.as(BinaryOperatorExprSyntax.self)?.operator.text,
                       op.hasSuffix("="), !["==", "!=", "<=", ">=", "==="].contains(op) {
                        return .assignment
                    }
                }
                return nil
            }
            if let infix = parent.as(InfixOperatorExprSyntax.self), infix.leftOperand.id == current.id {
                if infix.operator.is(AssignmentExprSyntax.self) { return .assignment }
                let op = infix.operator.trimmedDescription
                return op.hasSuffix("=") && !["==", "!=", "<=", ">=", "==="].contains(op) ? .assignment : nil
            }
            return nil
        }
        return nil
    }

    /// Methods of the standard library's collections that mutate them.
    static let mutatingMethods: Set<String> = [
        "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "popLast", "sort", "reverse",
        "merge", "formUnion", "formIntersection", "subtract", "updateValue", "removeValue", "shuffle", "swapAt",
    ]

    /// A `return`, `break`, `continue` or `fallthrough` of `node` that
    /// leaves it (not one inside a closure or a loop of its own).
    static func exit(in node: Syntax) -> String? {
        final class Finder: SyntaxVisitor {
            var found: String?
            var loops = 0
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
                found = found ?? "return"
                return .skipChildren
            }
            override func visit(_ node: BreakStmtSyntax) -> SyntaxVisitorContinueKind {
                if loops == 0 || node.label != nil { found = found ?? "break" }
                return .skipChildren
            }
            override func visit(_ node: ContinueStmtSyntax) -> SyntaxVisitorContinueKind {
                if loops == 0 || node.label != nil { found = found ?? "continue" }
                return .skipChildren
            }
            override func visit(_ node: FallThroughStmtSyntax) -> SyntaxVisitorContinueKind {
                found = found ?? "fallthrough"
                return .skipChildren
            }
            override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind { loops += 1; return .visitChildren }
            override func visitPost(_ node: ForStmtSyntax) { loops -= 1 }
            override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind { loops += 1; return .visitChildren }
            override func visitPost(_ node: WhileStmtSyntax) { loops -= 1 }
            override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind { loops += 1; return .visitChildren }
            override func visitPost(_ node: RepeatStmtSyntax) { loops -= 1 }
            override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind { loops += 1; return .visitChildren }
            override func visitPost(_ node: SwitchExprSyntax) { loops -= 1 }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.found
    }
}

extension SyntaxProtocol {
    /// Every node of type `T` below this one (this one included), in order.
    func descendants<T: SyntaxProtocol>(_ type: T.Type) -> [T] {
        let collector = NodeCollector<T>(viewMode: .sourceAccurate)
        collector.walk(self)
        return collector.found
    }
}

/// Collects the nodes of type `T` of a tree, in order.
private final class NodeCollector<T: SyntaxProtocol>: SyntaxAnyVisitor {
    var found: [T] = []
    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        if let match = node.as(T.self) { found.append(match) }
        return .visitChildren
    }
}
#endif
