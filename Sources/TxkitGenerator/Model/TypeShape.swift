#if Txkit
import SwiftParser
import SwiftSyntax

/// What the generator reasons about in a type a declaration writes, read
/// once from its syntax: whether it is optional, opaque, a function or
/// holds one, and the names it mentions (to tell a member's generic
/// parameters). Generated code spells the type as written; this is only
/// what the generator decides from it.
///
/// ```swift
/// TypeShape(parsing: "@escaping (Int) -> Void").mentionsFunction   // true
/// TypeShape(parsing: "Result<T, Error>?").names                    // ["Result", "T", "Error"]
/// ```
package struct TypeShape: Equatable, Sendable {
    /// `T?` or `T!`, attributes and `inout` aside.
    package var isOptional = false
    /// `some P`: an opaque type.
    package var isOpaque = false
    /// A function type appears in it (`(Int) -> Void`, `[String: () -> Void]`,
    /// `((Row) -> T)?`): a closure, which a mock does not record.
    package var mentionsFunction = false
    /// The names it mentions, in order, backticks removed
    /// (`Result<T, Error>` → `Result`, `T`, `Error`; `T.Element` → `T`, `Element`).
    package var names: [String] = []
    /// The existentials it holds: each `any P & Q`, `P & Q`, `any P` (and
    /// `some P`) as the names of what it composes, generic arguments aside
    /// (`any Codable & Hashable` → `["Codable", "Hashable"]`).
    package var existentials: [[String]] = []
    /// The names it mentions outside ``existentials``, `Any` and `Self`
    /// included.
    package var namesOutsideExistentials: [String] = []

    /// The shape of `type`.
    package init(_ type: TypeSyntax) {
        // A plain name (`Int`, `Database`, `Any`), most of what a signature
        // writes: its shape without a walk.
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
            if let name = Self.name(identifier.name) {
                names = [name]
                namesOutsideExistentials = [name]
            } else if identifier.name.tokenKind == .keyword(.Any) || identifier.name.tokenKind == .keyword(.Self) {
                namesOutsideExistentials = [identifier.name.text]
            }
            return
        }
        var core = type
        while true {
            if let attributed = core.as(AttributedTypeSyntax.self) {
                core = attributed.baseType
            } else if let tuple = core.as(TupleTypeSyntax.self), tuple.elements.count == 1,
                      let only = tuple.elements.first, only.firstName == nil {
                core = only.type
            } else {
                break
            }
        }
        isOptional = core.is(OptionalTypeSyntax.self) || core.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
        isOpaque = core.as(SomeOrAnyTypeSyntax.self)?.someOrAnySpecifier.tokenKind == .keyword(.some)
        mentionsFunction = type.is(FunctionTypeSyntax.self)
            || type.children(viewMode: .sourceAccurate).contains { Self.mentionsFunction($0) }
        names = type.tokens(viewMode: .sourceAccurate).compactMap(Self.name)
        collectExistentials(Syntax(type))
    }

    private static func name(_ token: TokenSyntax) -> String? {
        guard case .identifier = token.tokenKind else { return nil }
        let text = token.text
        return text.contains("`" as Character) ? text.filter { $0 != "`" } : text
    }

    private mutating func collectExistentials(_ node: Syntax) {
        var composed: TypeSyntax?
        if let composition = node.as(CompositionTypeSyntax.self) {
            composed = TypeSyntax(composition)
        } else if let existential = node.as(SomeOrAnyTypeSyntax.self) {
            composed = existential.constraint
        }
        if let composed {
            let parts = composed.as(CompositionTypeSyntax.self)?.elements.map(\.type) ?? [composed]
            existentials.append(parts.map { part in
                part.as(IdentifierTypeSyntax.self)?.name.text ?? part.as(MemberTypeSyntax.self)?.name.text
                    ?? part.trimmedText
            })
            return
        }
        if let token = node.as(TokenSyntax.self) {
            if let name = Self.name(token) {
                namesOutsideExistentials.append(name)
            } else if token.tokenKind == .keyword(.Any) || token.tokenKind == .keyword(.Self) {
                namesOutsideExistentials.append(token.text)
            }
        }
        for child in node.children(viewMode: .sourceAccurate) { collectExistentials(child) }
    }

    /// The shape of a type the generator wrote itself (a specialization's,
    /// a property type inferred from its initial value).
    package init(parsing text: String) {
        var parser = Parser(text)
        self.init(TypeSyntax.parse(from: &parser))
    }

    private static func mentionsFunction(_ node: Syntax) -> Bool {
        node.is(FunctionTypeSyntax.self) || node.children(viewMode: .sourceAccurate).contains { mentionsFunction($0) }
    }
}
#endif
