#if Txkit
import Foundation
import SwiftSyntax

/// The moved code as text: its statements re-indented for the wrapper, a
/// one-line summary for refusals, the shim's name.
extension LegacyCodeExtractor {
    /// Whether a `try` covers `expression` (up to its statement or closure).
    /// Whether `expression` is the operand of an `await` (`try await x`,
    /// `await x`).
    func isAwaited(_ expression: ExprSyntax) -> Bool {
        expression.parent?.is(AwaitExprSyntax.self) == true
    }

    /// Whether the code of `nodes` awaits, outside the closures it passes.
    func awaits(_ nodes: [Syntax]) -> Bool {
        nodes.contains { node in
            node.descendants(AwaitExprSyntax.self).contains { awaited in
                var current = awaited.parent
                while let parent = current, parent.id != node.id {
                    if parent.is(ClosureExprSyntax.self) { return false }
                    current = parent.parent
                }
                return true
            }
        }
    }

    func isTried(_ expression: ExprSyntax) -> Bool {
        var node = expression.parent
        while let current = node {
            if current.is(TryExprSyntax.self) { return true }
            // `try a ? b : c`, unfolded: the `try` of the first element covers the sequence.
            if let list = current.as(ExprListSyntax.self), list.first?.is(TryExprSyntax.self) == true { return true }
            if current.is(CodeBlockItemSyntax.self) || current.is(ClosureExprSyntax.self) { return false }
            if let element = current.as(ConditionElementSyntax.self) { _ = element; return false }
            node = current.parent
        }
        return false
    }

    /// The expression statement `expression` makes up, with its `try` and
    /// `await`, if it is one.
    func statementExpression(of expression: ExprSyntax) -> CodeBlockItemSyntax? {
        var node = Syntax(expression)
        while let parent = node.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
            node = parent
        }
        guard let item = node.parent?.as(CodeBlockItemSyntax.self) else { return nil }
        return item
    }

    /// Whether a statement is the scope's single expression, whose value the
    /// block returns.
    func isImplicitReturn(_ item: CodeBlockItemSyntax) -> Bool {
        scope.returnsSingleExpression && item.parent?.id == scope.body.id
    }

    /// The text of `nodes` as the wrapper holds it: dedented, `self.x` of
    /// the consumer's properties as `x`, `Self` as the consumer's name,
    /// and `extra` made (offsets in the file).
    func movedText(_ nodes: [Syntax], extra: [TextEdit] = []) -> [String] {
        guard let first = nodes.first, let last = nodes.last else { return [] }
        let tree = first.root
        let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = last.endPositionBeforeTrailingTrivia.utf8Offset
        var replacements: [TextEdit] = []
        for node in nodes {
            for member in node.descendants(MemberAccessExprSyntax.self) {
                if member.base?.trimmedDescription == "self", FreeVariables.isProperty(member.declName.baseName.text, of: context.consumer) {
                    replacements.append(TextEdit(
                        start: member.positionAfterSkippingLeadingTrivia.utf8Offset - start,
                        end: member.declName.positionAfterSkippingLeadingTrivia.utf8Offset - start, replacement: ""))
                }
            }
            // A finder the consumer holds is its shim now: its calls take `tx`.
            for reference in node.descendants(DeclReferenceExprSyntax.self) where reference.baseName.text == scope.legacyName {
                if case let .transaction(expression, label)? = transactionArgument(ExprSyntax(reference)) {
                    let from = (label.map { Syntax($0) } ?? Syntax(expression)).positionAfterSkippingLeadingTrivia.utf8Offset
                    replacements.append(TextEdit(
                        start: from - start, end: expression.endPositionBeforeTrailingTrivia.utf8Offset - start, replacement: "tx"))
                }
            }
            // A bridge written inline is the legacy transaction the wrapper builds.
            for bridge in scope.bridges where LocalDeclaration.isInside(bridge, node) {
                if case let .transaction(expression, label)? = transactionArgument(bridge) {
                    let from = (label.map { Syntax($0) } ?? Syntax(expression)).positionAfterSkippingLeadingTrivia.utf8Offset
                    replacements.append(TextEdit(
                        start: from - start, end: expression.endPositionBeforeTrailingTrivia.utf8Offset - start, replacement: "tx"))
                } else {
                    replacements.append(TextEdit(
                        start: bridge.positionAfterSkippingLeadingTrivia.utf8Offset - start,
                        end: bridge.endPositionBeforeTrailingTrivia.utf8Offset - start, replacement: scope.legacyName))
                }
            }
            for reference in node.descendants(DeclReferenceExprSyntax.self) where reference.baseName.text == "Self" {
                replacements.append(TextEdit(
                    start: reference.positionAfterSkippingLeadingTrivia.utf8Offset - start,
                    end: reference.endPositionBeforeTrailingTrivia.utf8Offset - start,
                    replacement: context.consumer.qualifiedName))
            }
        }
        replacements += extra.map { TextEdit(start: $0.start - start, end: $0.end - start, replacement: $0.replacement) }
        let bytes = Array(tree.description.utf8)[start ..< end]
        let text = TextEdit.apply(replacements, to: String(decoding: bytes, as: UTF8.self))
        let column = scope.file.converter.location(for: first.positionAfterSkippingLeadingTrivia).column - 1
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            guard index > 0 else { return String(line) }
            var dropped = 0
            var rest = Substring(line)
            while dropped < column, rest.first == " " {
                rest = rest.dropFirst()
                dropped += 1
            }
            return String(rest)
        }
    }

    /// `lines` with `prefix` before the first line, unless it starts with
    /// `try` already (`return try` then).
    func prefixed(_ lines: [String], _ prefix: String) -> [String] {
        guard let first = lines.first else { return lines }
        var head = prefix
        if first.hasPrefix("try ") || first.hasPrefix("try? ") || first.hasPrefix("try! ") {
            head = prefix.replacingOccurrences(of: "try ", with: "")
        }
        return [head + first] + lines.dropFirst()
    }

    func summary(of node: Syntax) -> String {
        let line = node.trimmedDescription.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let short = line.count > 80 ? String(line.prefix(79)) + "…" : line
        return "`\(short.replacingOccurrences(of: "`", with: "'"))`, from `\(context.consumer.name).\(scope.methodName)`"
    }
}
#endif
