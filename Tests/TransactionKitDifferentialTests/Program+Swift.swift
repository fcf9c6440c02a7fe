/// Programs printed as Swift source: a literal that compiles in this
/// target, so that a shrunk mismatch is pasted as a regular test.
extension Program {
    /// The program as a Swift expression, one step a line.
    var swift: String {
        if steps.isEmpty { return "Program(steps: [])" }
        let lines = steps.map { "    " + $0.swift + "," }
        return "Program(steps: [\n" + lines.joined(separator: "\n") + "\n])"
    }

    /// The number of steps and ops, nested ones included: the size the
    /// shrinker reduces.
    var size: Int {
        steps.reduce(0) { $0 + $1.size }
    }
}

extension Step {
    var swift: String {
        switch self {
        case let .write(ops, end): ".write(\(ops.swift), \(end.swift))"
        case let .writeOrRollBack(ops, commit): ".writeOrRollBack(\(ops.swift), commit: \(commit))"
        case let .read(ops, end): ".read(\(ops.swift), \(end.swift))"
        case let .observe(id, tables, collections):
            ".observe(\(id), tables: \(swiftArray(tables)), collections: \(swiftArray(collections)))"
        case let .stopObserving(id): ".stopObserving(\(id))"
        case let .useEscaped(use): ".useEscaped(\(use.swift))"
        }
    }

    var size: Int {
        switch self {
        case let .write(ops, _), let .writeOrRollBack(ops, _), let .read(ops, _): 1 + ops.size
        case .observe, .stopObserving, .useEscaped: 1
        }
    }
}

extension End {
    var swift: String {
        switch self {
        case let .returns(value): ".returns(\(value))"
        case let .throws(id): ".throws(\(id))"
        }
    }
}

extension [Op] {
    var swift: String {
        "[" + map(\.swift).joined(separator: ", ") + "]"
    }

    var size: Int {
        reduce(0) { $0 + $1.size }
    }
}

extension Op {
    var swift: String {
        switch self {
        case let .set(collection, key, typed): ".set(\(swiftString(collection)), \(swiftString(key)), \(typed.swift))"
        case let .get(collection, key, getter): ".get(\(swiftString(collection)), \(swiftString(key)), .\(getter.rawValue))"
        case let .remove(collection, key): ".remove(\(swiftString(collection)), \(swiftString(key)))"
        case let .removeAll(collection): ".removeAll(\(swiftString(collection)))"
        case let .keys(collection): ".keys(\(swiftString(collection)))"
        case let .count(collection): ".count(\(swiftString(collection)))"
        case let .insertRow(table): ".insertRow(\(swiftString(table)))"
        case let .finalization(key, ops, throwing):
            ".finalization(\(swiftString(key)), \(ops.swift), throws: \(throwing))"
        case let .syncCompletion(label, write): ".syncCompletion(\(label), write: \(write.map(\.swift) ?? "nil"))"
        case let .asyncCompletion(label): ".asyncCompletion(\(label))"
        case let .block(ops, end, caught): ".block(\(ops.swift), \(end.swift), caught: \(caught))"
        case let .savepoint(ops, end, caught): ".savepoint(\(ops.swift), \(end.swift), caught: \(caught))"
        case let .nested(kind): ".nested(.\(kind.rawValue))"
        case .escape: ".escape"
        case let .useEscaped(use): ".useEscaped(\(use.swift))"
        }
    }

    var size: Int {
        switch self {
        case let .finalization(_, ops, _), let .block(ops, _, _), let .savepoint(ops, _, _): 1 + ops.size
        case let .syncCompletion(_, write?): 1 + write.size
        default: 1
        }
    }
}

extension SavepointEnd {
    var swift: String {
        switch self {
        case .commit: ".commit"
        case .rollback: ".rollback"
        case let .throws(id): ".throws(\(id))"
        }
    }
}

extension EscapedUse {
    var swift: String {
        switch self {
        case let .set(collection, key): ".set(\(swiftString(collection)), \(swiftString(key)))"
        case let .get(collection, key): ".get(\(swiftString(collection)), \(swiftString(key)))"
        case .syncCompletion: ".syncCompletion"
        case .preconditionActive: ".preconditionActive"
        }
    }
}

extension Typed {
    var swift: String {
        switch self {
        case let .value(value): ".value(\(value.swift))"
        case let .int(value): ".int(\(swiftInt(Int64(value), type: "Int")))"
        case let .bool(value): ".bool(\(value))"
        case let .double(value): ".double(\(swiftDouble(value)))"
        case let .string(value): ".string(\(swiftString(value)))"
        case let .data(bytes): ".data(\(bytes))"
        case let .date(seconds): ".date(\(swiftDouble(seconds)))"
        case let .codable(value): ".codable(\(value))"
        }
    }
}

extension ValueLiteral {
    var swift: String {
        switch self {
        case let .integer(value): ".integer(\(swiftInt(value)))"
        case let .real(value): ".real(\(swiftDouble(value)))"
        case let .text(value): ".text(\(swiftString(value)))"
        case let .blob(bytes): ".blob(\(bytes))"
        }
    }
}

/// A Swift string literal, every character outside printable ASCII
/// escaped (so that "é" and "e\u{301}" stay apart on screen).
func swiftString(_ string: String) -> String {
    var literal = "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": literal += "\\\""
        case "\\": literal += "\\\\"
        case " "..."~": literal.unicodeScalars.append(scalar)
        default: literal += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return literal + "\""
}

func swiftInt(_ value: Int64, type: String = "Int64") -> String {
    switch value {
    case .min: "\(type).min"
    case .max: "\(type).max"
    default: "\(value)"
    }
}

func swiftDouble(_ value: Double) -> String {
    if value == .infinity { return ".infinity" }
    if value == -.infinity { return "-.infinity" }
    return "\(value)"
}

func swiftArray(_ strings: [String]) -> String {
    "[" + strings.map(swiftString).joined(separator: ", ") + "]"
}
