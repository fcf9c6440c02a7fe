#if Txkit
/// A Swift access level, as a declaration states it or `txkit.json`'s
/// `accessLevel` asks for generated declarations; ordered from the
/// narrowest to the widest.
package enum AccessLevel: String, CaseIterable, Codable, Comparable, CustomStringConvertible, Sendable {
    case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

    /// The levels `txkit.json` may name for generated shims and wrappers.
    package static let configurable: [AccessLevel] = [.public, .package, .internal]

    /// The modifier to write before a declaration: `public `, `package `,
    /// or nothing for `internal`, the default.
    package var modifier: String {
        self == .internal ? "" : rawValue + " "
    }

    /// The keyword.
    package var description: String { rawValue }

    /// `public` or `open`: visible to other packages.
    package var isPublic: Bool { self >= .public }

    package static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
#endif
