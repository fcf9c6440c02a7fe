#if Txkit
/// Written Swift types as text, the way `txkit migrate` composes them:
/// optionals, collections, tuples and metatypes.
enum TypeText {
    static func optional(_ type: String) -> String {
        if isOptional(type) { return type }
        if type.contains("->") || type.hasPrefix("any ") || type.hasPrefix("some ") || type.contains(" & ") {
            return "(\(type))?"
        }
        return type + "?"
    }

    static func isOptional(_ type: String) -> Bool {
        type.hasSuffix("?") || type.hasSuffix("!") || (type.hasPrefix("Optional<") && type.hasSuffix(">"))
    }

    static func unwrapped(_ type: String) -> String {
        var type = type
        if type.hasSuffix("?") || type.hasSuffix("!") {
            type.removeLast()
            if type.hasPrefix("("), type.hasSuffix(")"), balanced(String(type.dropFirst().dropLast())) {
                type = String(type.dropFirst().dropLast())
            }
            return type
        }
        if type.hasPrefix("Optional<"), type.hasSuffix(">") {
            return String(type.dropFirst("Optional<".count).dropLast())
        }
        return type
    }

    /// A literal's default type stands (`let n = 0` is an `Int`).
    static func unwrappedIfLiteral(_ type: String) -> String { type }

    /// `[T]`, `Set<T>`, `Array<T>`, `ArraySlice<T>` → `T`; `[K: V]` →
    /// `(key: K, value: V)`; `String` → `Character`; ranges of `Int`.
    static func elementType(_ type: String) -> String? {
        if let (key, value) = dictionaryTypes(type) { return "(key: \(key), value: \(value))" }
        if type.hasPrefix("["), type.hasSuffix("]") { return String(type.dropFirst().dropLast()).trimmingWhitespace }
        for prefix in ["Set<", "Array<", "ArraySlice<", "ContiguousArray<"] where type.hasPrefix(prefix) && type.hasSuffix(">") {
            return String(type.dropFirst(prefix.count).dropLast())
        }
        if type.hasPrefix("EnumeratedSequence<"), type.hasSuffix(">"),
           let element = elementType(String(type.dropFirst("EnumeratedSequence<".count).dropLast())) {
            return "(offset: Int, element: \(element))"
        }
        if type == "String" { return "Character" }
        if type.hasPrefix("Range<") || type.hasPrefix("ClosedRange<") {
            return String(type.drop { $0 != "<" }.dropFirst().dropLast())
        }
        return nil
    }

    /// `[K: V]` → `(K, V)`.
    static func dictionaryTypes(_ type: String) -> (String, String)? {
        guard type.hasPrefix("["), type.hasSuffix("]") else { return nil }
        let inner = String(type.dropFirst().dropLast())
        guard let colon = topLevelIndex(of: ":", in: inner) else { return nil }
        return (String(inner[..<colon]).trimmingWhitespace, String(inner[inner.index(after: colon)...]).trimmingWhitespace)
    }

    /// `T.Type` → `T`.
    static func metatypeInstance(_ type: String) -> String? {
        type.hasSuffix(".Type") ? String(type.dropLast(".Type".count)) : nil
    }

    /// `QueryInterfaceRequest<T>` → `T`.
    static func requestRecord(_ type: String) -> String? {
        let prefix = "QueryInterfaceRequest<"
        return type.hasPrefix(prefix) && type.hasSuffix(">") ? String(type.dropFirst(prefix.count).dropLast()) : nil
    }

    /// The element `name` of a labeled tuple type.
    static func tupleElement(named name: String, in type: String) -> String? {
        guard type.hasPrefix("("), type.hasSuffix(")") else { return nil }
        for element in topLevelSplit(String(type.dropFirst().dropLast()), separator: ",") {
            let parts = element.split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace }
            if parts.count == 2, parts[0] == name { return parts[1] }
        }
        return nil
    }

    /// The element at `position` of a tuple type, its label dropped.
    static func tupleElement(at position: Int, in type: String) -> String? {
        guard type.hasPrefix("("), type.hasSuffix(")") else { return nil }
        let elements = topLevelSplit(String(type.dropFirst().dropLast()), separator: ",")
        guard position < elements.count else { return nil }
        let element = elements[position]
        if let colon = topLevelColon(element) { return String(element[element.index(after: colon)...]).trimmingWhitespace }
        return element
    }

    private static func topLevelColon(_ text: String) -> String.Index? {
        topLevelIndex(of: ":", in: text)
    }

    /// `(A) throws -> R` → `R`.
    static func functionResult(_ type: String) -> String? {
        guard let arrow = type.range(of: "->", options: .backwards) else { return nil }
        return String(type[arrow.upperBound...]).trimmingWhitespace
    }

    /// `Self` in a member's written type, replaced by the type it was reached on.
    static func replacingSelf(_ written: String, with type: String) -> String {
        identifiers(in: written).contains("Self") ? replacingIdentifier("Self", with: type, in: written) : written
    }

    /// The identifiers in a written type.
    static func identifiers(in type: String) -> [String] {
        var found: [String] = []
        var current = ""
        for character in type + " " {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                if !current.isEmpty { found.append(current) }
                current = ""
            }
        }
        return found
    }

    static func replacingIdentifier(_ name: String, with replacement: String, in text: String) -> String {
        var result = ""
        var current = ""
        for character in text + "\u{0}" {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                result += current == name ? replacement : current
                current = ""
                if character != "\u{0}" { result.append(character) }
            }
        }
        return result
    }

    /// The parenthesis that closes the one `text` starts with.
    static func closingParenthesis(in text: String) -> String.Index? {
        var depth = 0
        for index in text.indices {
            if text[index] == "(" { depth += 1 }
            if text[index] == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    private static func balanced(_ text: String) -> Bool {
        var depth = 0
        for character in text {
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            if depth < 0 { return false }
        }
        return depth == 0
    }

    private static func topLevelIndex(of target: Character, in text: String) -> String.Index? {
        var depth = 0
        for index in text.indices {
            let character = text[index]
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            if depth == 0, character == target { return index }
        }
        return nil
    }

    static func topLevelSplit(_ text: String, separator: Character) -> [String] {
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in text {
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            if depth == 0, character == separator {
                parts.append(current.trimmingWhitespace)
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.trimmingWhitespace.isEmpty { parts.append(current.trimmingWhitespace) }
        return parts
    }
}
#endif
