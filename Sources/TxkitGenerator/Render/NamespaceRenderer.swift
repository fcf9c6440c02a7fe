#if Txkit
/// Writes a consumer's namespaces, which list every legacy type generated
/// for it: `C+Shortcuts.swift` (`enum Shims`, `enum Wrappers`, in the
/// sources) and `C+Mocks.swift` (`enum Mocks`, in the test target).
struct NamespaceRenderer {
    /// The consumer.
    let consumer: String
    /// Its legacy types, in the order the namespaces list them.
    let legacies: [String]
    /// The access of each legacy type's shim, when narrower than the
    /// namespaces' (a type alias is no wider than what it names).
    var accesses: [String: AccessLevel] = [:]
    /// The marker of namespace files, which `txkit shim --all` regenerates.
    let marker = GeneratedFileMarker.shimNamespaces.line

    /// `extension C { enum Shims { … }; enum Wrappers { … } }`, declared
    /// with `access` (a modifier such as `package `).
    func shortcuts(access: String) -> String {
        var lines = [marker, "", "extension \(consumer) {"]
        lines += namespace(
            GeneratedLayout.shimsNamespace, "What `\(consumer)` uses of legacy types, as protocols (Shortcut Way).",
            access: access, type: GeneratedLayout.shimName)
        lines.append("")
        lines += namespace(
            GeneratedLayout.wrappersNamespace, "The production conformances, bridging to the legacy types.",
            access: access, type: GeneratedLayout.wrapperName)
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One `enum` with a documented type alias per legacy type.
    private func namespace(
        _ name: String, _ documentation: String, access: String, type: (_ consumer: String, _ legacy: String) -> String
    ) -> [String] {
        var lines = ["    /// \(documentation)", "    \(access)enum \(name) {"]
        let level = AccessLevel(rawValue: access.trimmingWhitespace) ?? .internal
        for legacy in legacies {
            let target = type(consumer, legacy)
            let modifier = accesses[legacy].map { $0 < level ? $0.modifier : access } ?? access
            lines += ["        /// See ``\(target)``.", "        \(modifier)typealias \(legacy) = \(target)"]
        }
        return lines + ["    }"]
    }

    /// `extension C { enum Mocks { … } }`, after `imports`.
    func mocks(imports: [String]) -> String {
        var lines = [marker, ""]
        lines += imports.map(SwiftText.importStatement)
        if !imports.isEmpty { lines.append("") }
        lines += [
            "extension \(consumer) {",
            "    /// Test doubles for `\(consumer).\(GeneratedLayout.shimsNamespace)`; they live in the test target.",
            "    enum \(GeneratedLayout.mocksNamespace) {",
        ]
        lines += legacies.map { "        typealias \($0) = \(GeneratedLayout.mockName(consumer: consumer, legacy: $0))" }
        lines += ["    }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }
}
#endif
