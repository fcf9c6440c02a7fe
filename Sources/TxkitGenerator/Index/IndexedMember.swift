#if Txkit
import Foundation

/// A member of an indexed type (a legacy finder, a consumer or a protocol):
/// a method or a property, as declared.
package struct IndexedMember: Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
        case function
        case property(isSettable: Bool)
    }

    package var kind: Kind
    package var name: String
    package var isStatic: Bool
    /// `<T: Decodable>`, or empty.
    package var genericParameters: String
    /// The generic parameter names (`T` of `<T: Decodable>`), from the
    /// declaration's syntax.
    package var genericParameterNames: [String]
    /// `where T: Sendable`, or empty.
    package var whereClause: String
    package var parameters: [IndexedParameter]
    package var isAsync: Bool
    /// `throws`, `throws(E)`, `rethrows`, or `nil`.
    package var throwsClause: String?
    /// The result type (the property's type), `nil` for `Void`.
    package var resultType: String?
    /// What the generator reasons about in the result type (`Void` too).
    package var resultShape: TypeShape?
    /// The attributes a shim keeps: `@discardableResult`, `@available(…)`,
    /// global actors such as `@MainActor`.
    package var attributes: [String]
    /// The declaration's doc comment lines (`/// …`), as written.
    package var documentation: [String] = []
    /// Where the member is declared.
    package var declaration: SourceLocation
    /// Its access level as declared: its modifier, else its extension's
    /// (`public extension`), else `internal`; `open` counts as `public`.
    /// Not narrowed by the type's.
    package var accessLevel: AccessLevel = .internal
    /// `file:line` of the declaration, for messages.
    package var location: String { declaration.description }
    /// The declaration's position among all members of the type (file
    /// order, then offset), so that output follows the source.
    var order: Int
    /// Declared `nonisolated`, or a `let` (whose `Sendable` value the
    /// module reads without `await`): in an actor, code outside it calls
    /// the member synchronously. The actor's other instance members are
    /// isolated to it.
    package var isExemptFromActorIsolation = false

    /// `name(label:label:)`, as Swift names a function; `name` for a property.
    package var displayName: String {
        switch kind {
        case .property:
            return name
        case .function:
            let labels = parameters.map { ($0.label ?? "_") + ":" }.joined()
            return "\(name)(\(labels))"
        }
    }
}
#endif
