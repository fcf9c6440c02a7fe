#if Txkit
extension Generator {
    /// A mock of a protocol (a Good-Way finder): its own requirements and
    /// those it inherits from protocols of the sources, one stub per member
    /// (see ``ProtocolMockRenderer`` for the stubs' names and kinds).
    ///
    /// - Parameter mockName: The class's name; `PMock` by default.
    /// - Throws: ``GeneratorError/notAProtocol(_:kind:location:)``, or
    ///   ``MockRefused`` with each place and reason when the protocol has a
    ///   shape txkit cannot mock; nothing is generated then.
    package func mock(protocol protocolName: String, mockName: String? = nil) throws -> GeneratedFile {
        let renderer = try mockRenderer(protocol: protocolName, mockName: mockName)
        let refusals = renderer.refusals()
        guard refusals.isEmpty else {
            throw MockRefused(
                protocolName: protocolName,
                reasons: refusals.map { MockRefused.Reason(location: $0.location, reason: $0.reason) })
        }
        return GeneratedFile(
            path: GeneratedLayout(configuration).protocolMockPath(protocol: protocolName, mockName: renderer.mockName),
            contents: renderer.render())
    }

    /// The render stage of ``mock(protocol:mockName:)``: the protocol's
    /// requirements, read, with the mock's name.
    package func mockRenderer(protocol protocolName: String, mockName: String? = nil) throws -> ProtocolMockRenderer {
        let type = try index.type(named: protocolName)
        guard type.kind == .protocol else {
            let kind = type.kind.map { ($0 == .enum || $0 == .actor ? "an " : "a ") + $0.rawValue }
                ?? "a type known only from extensions"
            throw GeneratorError.notAProtocol(protocolName, kind: kind, location: type.files.first ?? protocolName)
        }
        let requirements = ProtocolRequirements(type, index: index)
        let name = mockName ?? GeneratedLayout.protocolMockName(protocol: protocolName)
        var imports = ShimRenderer.imports(
            of: type, configuration: configuration,
            adding: configuration.mockImports + ["TransactionKit", "TransactionKitTesting"])
        if requirements.requiresNSObject && !imports.contains("Foundation") {
            imports.insert("Foundation", at: 0)
        }
        let renderer = ProtocolMockRenderer(
            requirements: requirements, mockName: name, imports: imports,
            marker: GeneratedFileMarker.mock(protocolName: protocolName, mockName: mockName).line, index: index)
        return renderer
    }
}

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
