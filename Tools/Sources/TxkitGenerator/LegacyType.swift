import SwiftSyntax

/// A type found in the sources, with the members of its declaration and of
/// every extension of it, in any file and inside `#if` blocks.
public struct LegacyType {
    public enum Kind: String, Sendable {
        case `class`, `struct`, `enum`, `actor`, `protocol`
    }

    public var name: String
    /// `nil` when only extensions were found.
    public var kind: Kind?
    public var members: [LegacyMember] = []
    /// The files that declare or extend it, in the order they were read.
    public var files: [String] = []
    /// What those files import.
    public var imports: [String] = []
    /// Whether it has an initializer that takes no argument (declared, or
    /// all defaulted), so that a wrapper can create one.
    public var hasArgumentlessInit = false
    /// `public`, `package`, `internal`… of the declaration.
    public var accessLevel = "internal"
    /// The declaration and extensions, for the consumer scan.
    var declarations: [TypeDeclaration] = []
}

/// One declaration (or extension) of a type, with the file it is in.
struct TypeDeclaration {
    var memberBlock: MemberBlockSyntax
    var file: SourceFile
    /// The inheritance clause's types.
    var inherited: [String]
}
