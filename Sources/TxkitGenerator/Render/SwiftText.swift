#if Txkit
/// Small pieces of Swift text the renderers share.
enum SwiftText {
    /// The import statement of a txkit.json module entry: `App`, or
    /// `@testable App` (mockImports only) for mocks of internal consumers.
    static func importStatement(_ module: String) -> String {
        let testable = "@testable "
        return module.hasPrefix(testable) ? "@testable import \(module.dropFirst(testable.count))" : "import \(module)"
    }

    /// Words written in capitals inside an identifier (`userByID`).
    private static let acronyms: Set<String> = ["id", "url", "uuid", "uri", "json", "sql", "html", "http"]

    /// `name` → `Name`, `id` → `ID`.
    static func capitalized(_ word: String) -> String {
        if acronyms.contains(word.lowercased()) { return word.uppercased() }
        return word.prefix(1).uppercased() + word.dropFirst()
    }

    /// A type name as a property name: `ItemStore` → `itemStore`,
    /// `URLFinder` → `urlFinder`.
    static func lowercasedFirst(_ name: String) -> String {
        let characters = Array(name)
        var count = characters.prefix { $0.isUppercase }.count
        if count > 1 && count < characters.count { count -= 1 }
        return String(characters[..<count]).lowercased() + String(characters[count...])
    }

    /// A type as part of an identifier, for stub names of overloads that
    /// differ only by type: letters and digits, each word capitalized
    /// (`[Int64]` → `Int64`).
    static func identifier(from type: String) -> String {
        type.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            .map { capitalized(String($0)) }
            .joined()
    }

    /// A parameter as a declaration spells it: `id: Int64`, `_ body: String`,
    /// `named name: String`.
    static func parameterDeclaration(_ parameter: IndexedParameter, type: String? = nil) -> String {
        let declared = type ?? parameter.declaredType
        switch parameter.label {
        case nil:
            return "_ \(parameter.name): \(declared)"
        case parameter.name?:
            return "\(parameter.name): \(declared)"
        case let label?:
            return "\(label) \(parameter.name): \(declared)"
        }
    }

    /// An argument passing `value` for `parameter`: `id: id`, `body`.
    static func argument(_ parameter: IndexedParameter, value: String) -> String {
        parameter.label.map { "\($0): \(value)" } ?? value
    }

    /// `async throws`, `throws`, `rethrows`… with a leading space, or "".
    static func effects(isAsync: Bool, throwsClause: String?) -> String {
        var words: [String] = []
        if isAsync { words.append("async") }
        if let throwsClause { words.append(throwsClause) }
        return words.isEmpty ? "" : " " + words.joined(separator: " ")
    }

    /// `try await `, `try `… for a call with these effects.
    static func callPrefix(isAsync: Bool, throwing: Bool) -> String {
        (throwing ? "try " : "") + (isAsync ? "await " : "")
    }
}
#endif
