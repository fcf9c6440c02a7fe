#if Txkit
import SwiftSyntax

/// A type found in the sources, with the members of its declaration and of
/// every extension of it, in any file and inside `#if` blocks.
package struct IndexedType {
    package enum Kind: String, Sendable {
        case `class`, `struct`, `enum`, `actor`, `protocol`
    }

    package var name: String
    /// The name with its enclosing types (`Outer.Inner`), as generated code
    /// must spell it outside them.
    package var qualifiedName: String
    /// `nil` when only extensions were found.
    package var kind: Kind?
    package var members: [IndexedMember] = []
    /// Members it gets from a superclass, or from an adopted protocol's
    /// declaration and extensions, found in the sources (its own members
    /// win over them).
    package var inheritedMembers: [IndexedMember] = []
    /// For an enum: its case names, so that `.someCase` arguments tell
    /// overloads apart.
    package var enumCases: Set<String> = []
    /// The files that declare or extend it, in the order they were read.
    package var files: [String] = []
    /// What those files import.
    package var imports: [String] = []
    /// Whether it has an initializer that takes no argument (declared, or
    /// all defaulted), so that a wrapper can create one.
    package var hasArgumentlessInit = false
    /// `public`, `package`, `internal`… of the declaration.
    package var accessLevel = AccessLevel.internal
    /// The declaration and extensions, for the consumer scan.
    var declarations: [TypeDeclaration] = []
    /// The symbol table the type was read into, to type the expressions of
    /// its code (weak: the index holds the type).
    weak var index: SourceIndex?

    init(name: String, qualifiedName: String) {
        self.name = name
        self.qualifiedName = qualifiedName
    }

    /// The superclass and protocols named by every declaration and extension.
    var inherited: [String] {
        var all: [String] = []
        for declaration in declarations {
            for name in declaration.inherited where !all.contains(name) {
                all.append(name)
            }
        }
        return all
    }

    /// Where the type is first declared or extended.
    var location: SourceLocation { declarations[0].location }

    /// Where the type is declared, else where it is first extended.
    var declarationLocation: SourceLocation {
        (declarations.first { !$0.isExtension } ?? declarations[0]).location
    }

    /// Own members, then inherited ones.
    var allMembers: [IndexedMember] { members + inheritedMembers }

    /// The members of ``allMembers`` that satisfy `isIncluded`, in its
    /// order, without building it.
    func allMembers(where isIncluded: (IndexedMember) -> Bool) -> [IndexedMember] {
        members.filter(isIncluded) + inheritedMembers.filter(isIncluded)
    }
}

/// One declaration (or extension) of a type, with the file it is in.
struct TypeDeclaration {
    var memberBlock: MemberBlockSyntax
    var file: SourceFile
    /// The inheritance clause's types.
    var inherited: [String]
    /// Whether it is an extension rather than the type's declaration.
    var isExtension = false
    /// Where the declaration starts.
    var location: SourceLocation
}
#endif
