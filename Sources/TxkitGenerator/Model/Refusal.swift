#if Txkit
/// A place where txkit will not generate or rewrite: where, why, and what
/// a person does about it. Every command refuses with these (``GeneratorError/refused(_:_:)``
/// lists them), and prints them in one style, `path:line: reason; fix`:
///
/// ```
/// Sources/App/TaskManager.swift:12: store.find(id: 1, transaction: legacy) goes through `store`, a local or
/// parameter of type TaskStore, and --apply routes static uses, stored properties and locals that hold a
/// singleton or a temporary (`let x = TaskStore()`); make it a stored property (or edit this use by hand),
/// then run again
/// ```
package struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// What txkit refuses there, for the tools that count refusals by cause.
    package enum Kind: Equatable, Sendable {
        /// The consumer refers to the legacy type in a way txkit cannot
        /// follow to a member (a type alias, a generic argument, a
        /// collection): a shim made without it could miss members.
        case unresolvedReference
        /// The consumer is the legacy type itself: its calls of its own
        /// members need no shim.
        case selfPair
        /// A call that matches several members of the legacy type.
        case ambiguousCall
        /// A use that fits no member of the legacy type.
        case noMatchingMember
        /// A use, or a member, that a shim cannot declare.
        case unsupportedUse
        /// A use `txkit shim --apply` cannot rewrite without guessing.
        case cannotApply
        /// A type `txkit mock` cannot mock: not a protocol, or a protocol
        /// of a shape txkit does not mock.
        case cannotMock
        /// A type none of whose members takes a legacy transaction.
        case noLegacyTransaction
        /// A place `txkit convert` leaves to a person.
        case cannotConvert
        /// A place that stops `txkit migrate` from taking a consumer to the
        /// abstractions.
        case cannotMigrate
    }

    package var kind: Kind
    package var location: SourceLocation
    /// What txkit found there, as a clause a person reads after the place.
    package var reason: String
    /// What a person does about it; empty when there is nothing to do but
    /// leave the code as it is.
    package var fix: String
    /// Lines listed below the refusal (the members an ambiguous call fits).
    package var details: [String]

    package init(_ kind: Kind, at location: SourceLocation, _ reason: String, fix: String = "", details: [String] = []) {
        self.kind = kind
        self.location = location
        self.reason = reason
        self.fix = fix
        self.details = details
    }

    /// The reason and the fix, as one sentence: `reason; fix`.
    package var sentence: String {
        fix.isEmpty ? reason : "\(reason); \(fix)"
    }

    /// `path:line: reason; fix`, then the details, one an indented line.
    package var description: String {
        (["\(location): \(sentence)"] + details.map { "    \($0)" }).joined(separator: "\n")
    }
}
#endif
