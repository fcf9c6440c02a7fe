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

    /// The shape of `type`.
    package init(_ type: TypeSyntax) {
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
        names = type.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard case .identifier = token.tokenKind else { return nil }
            return token.text.replacingOccurrences(of: "`", with: "")
        }
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
