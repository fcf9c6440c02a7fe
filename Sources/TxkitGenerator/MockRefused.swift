#if Txkit
/// `txkit mock` refused a protocol: each place, with the shape txkit
/// cannot mock there. Nothing is written.
package struct MockRefused: Error, CustomStringConvertible, Sendable {
    /// One place and its reason.
    package struct Reason: Equatable, Sendable, CustomStringConvertible {
        package var location: SourceLocation
        package var reason: String

        /// `path:line: reason`.
        package var description: String { "\(location): \(reason)" }
    }

    package var protocolName: String
    package var reasons: [Reason]

    /// The protocol and each place, one a line.
    package var description: String {
        "txkit mock cannot mock \(protocolName); nothing was written:\n"
            + reasons.map { "  \($0)" }.joined(separator: "\n")
    }
}
#endif
