#if Txkit
import SwiftSyntax

/// One place where a consumer uses a member of a legacy type.
struct ConsumerUse {
    /// How the use reaches the member.
    enum Form {
        /// A call, with its argument labels in order (`nil` for an unlabeled
        /// argument; trailing closures come last, the first one unlabeled).
        case call(labels: [String?])
        /// A property read, write, or both (`x.count += 1`).
        case property(isRead: Bool, isWrite: Bool)
    }

    /// The transaction the use runs in, when the code around it says.
    enum Context {
        case read
        case write
        case unknown
    }

    /// What the member is reached through.
    enum Base: Equatable {
        /// The type itself: `Legacy.find(…)`.
        case type
        /// A stored property of the consumer, with or without `self.`.
        case storedProperty(String)
        /// A local variable or a parameter.
        case variable(String)
        /// Any other expression of the legacy type: a singleton
        /// (`Legacy.shared`), a temporary (`Legacy()`), a chain
        /// (`thread.associatedData`), a member result, a property whose
        /// type is inferred. Written as in the source.
        case expression(String)
    }

    var memberName: String
    var form: Form
    /// Whether the use goes through the legacy type (`Legacy.find(…)`,
    /// a variable of the legacy type) rather than through the shim the
    /// generator wrote before (`Shims.Legacy`), where legacy transaction
    /// parameters are unlabeled.
    var isThroughLegacyType: Bool
    var context: Context
    var base: Base
    /// The member access (`store.insert`), for `--apply`'s edits.
    var node: MemberAccessExprSyntax
    /// The file it is in.
    var file: SourceFile
    /// Where it is, for messages.
    var location: SourceLocation
    /// The call as written, for messages.
    var text: String
    /// The legacy type whose member is used.
    var legacyType: String = ""
    /// For a call: what each argument is, where the source says
    /// (trailing closures are `nil`), to tell overloads apart.
    var argumentTypes: [ExpressionType?] = []
}
#endif
