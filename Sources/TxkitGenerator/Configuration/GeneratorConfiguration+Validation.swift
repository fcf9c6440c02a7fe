#if Txkit
import Foundation

extension GeneratorConfiguration {
    /// Keys that start with `//` are comments, which JSON lacks: txkit
    /// ignores them at any level. `txkit init` writes one before each
    /// setting (`"// sources": "…"`).
    package static let commentPrefix = "//"

    /// The settings in `folder/txkit.json`, which must exist.
    ///
    /// - Throws: ``GeneratorError/missingConfiguration(path:)`` without the
    ///   file (the error says to run `txkit init`), or
    ///   ``GeneratorError/invalidSetting(path:key:problem:fix:)`` naming
    ///   the key and the fix.
    package static func loadRequired(from folder: String) throws -> GeneratorConfiguration {
        let path = (folder as NSString).appendingPathComponent("txkit.json")
        guard FileManager.default.fileExists(atPath: path) else {
            throw GeneratorError.missingConfiguration(path: path)
        }
        return try load(from: folder)
    }

    /// Decodes the text of `path`: unknown keys (a misspelling would
    /// otherwise be ignored) and wrong values are reported with their key
    /// and the fix, never as Swift's raw `DecodingError`.
    static func decode(_ data: Data, path: String) throws -> GeneratorConfiguration {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw GeneratorError.invalidSetting(
                path: path, key: "(the file)", problem: "not valid JSON: \(jsonSyntaxProblem(error))",
                fix: "Fix the syntax there (JSON has no comments or trailing commas; txkit reads keys starting with // as comments)")
        }
        guard let object = json as? [String: Any] else {
            throw GeneratorError.invalidSetting(
                path: path, key: "(the file)", problem: "the file holds a JSON \(jsonKind(json)), not an object",
                fix: "Write the settings as one JSON object, { \"sources\": [\"Sources\"], … }, or run txkit init")
        }
        try rejectUnknownKeys(object, path: path)
        do {
            return try JSONDecoder().decode(GeneratorConfiguration.self, from: data)
        } catch let GeneratorError.invalidSetting(_, key, problem, fix) {
            throw GeneratorError.invalidSetting(path: path, key: key, problem: problem, fix: fix)
        } catch let error as DecodingError {
            throw settingError(error, path: path)
        }
    }

    /// The keys txkit knows, at the top level and in a `legacyTransactions`
    /// entry, read from the encoded defaults so that a new setting needs no
    /// list kept up to date. Encoding leaves out a `nil` optional: a new
    /// optional setting must be given a value in `sample` below.
    static var knownKeys: (top: [String], legacy: [String], reverseBridge: [String]) {
        var sample = defaults
        sample.legacyTransactions[0].reverseBridge = .init(read: "$legacy", write: "$legacy")
        sample.legacyTransactions[0].renamedMembers = ["legacy": "TransactionKit"]
        let encoder = JSONEncoder()
        guard let data = try? encoder.encode(sample),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let legacy = (object["legacyTransactions"] as? [[String: Any]])?.first
        else { return ([], [], []) }
        let reverse = legacy["reverseBridge"] as? [String: Any] ?? [:]
        return (object.keys.sorted(), legacy.keys.sorted(), reverse.keys.sorted())
    }

    private static func rejectUnknownKeys(_ object: [String: Any], path: String) throws {
        let known = knownKeys
        try rejectUnknownKeys(of: object, known: known.top, prefix: "", path: path)
        for (index, entry) in (object["legacyTransactions"] as? [Any] ?? []).enumerated() {
            guard let entry = entry as? [String: Any] else { continue }
            let prefix = "legacyTransactions[\(index)]."
            try rejectUnknownKeys(of: entry, known: known.legacy, prefix: prefix, path: path)
            if let reverse = entry["reverseBridge"] as? [String: Any] {
                try rejectUnknownKeys(of: reverse, known: known.reverseBridge, prefix: prefix + "reverseBridge.", path: path)
            }
        }
    }

    private static func rejectUnknownKeys(of object: [String: Any], known: [String], prefix: String, path: String) throws {
        for key in object.keys.sorted() where !key.hasPrefix(commentPrefix) && !known.contains(key) {
            var fix = "Known keys here: \(known.joined(separator: ", "))"
            if let near = known.min(by: { editDistance($0, key) < editDistance($1, key) }),
               editDistance(near, key) <= max(2, key.count / 3) {
                fix = "Did you mean \"\(near)\"? " + fix
            }
            throw GeneratorError.invalidSetting(
                path: path, key: prefix + key, problem: "unknown key (txkit would ignore it)",
                fix: fix + "; a key starting with // is a comment")
        }
    }

    /// A `DecodingError` as the key it concerns, what is wrong and the fix.
    private static func settingError(_ error: DecodingError, path: String) -> GeneratorError {
        func keyPath(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "(the file)" : text
        }
        switch error {
        case let .typeMismatch(_, context):
            let key = keyPath(context.codingPath)
            return .invalidSetting(
                path: path, key: key, problem: "not \(valueDescription(key: key))",
                fix: "Write it as \(valueDescription(key: key))")
        case let .valueNotFound(_, context):
            let key = keyPath(context.codingPath)
            return .invalidSetting(
                path: path, key: key, problem: "null where txkit expects \(valueDescription(key: key))",
                fix: "Give it a value, or remove the key to take its default")
        case let .keyNotFound(missing, context):
            let key = keyPath(context.codingPath + [missing])
            return .invalidSetting(
                path: path, key: key, problem: "missing", fix: "Add \"\(missing.stringValue)\" to this entry")
        case let .dataCorrupted(context):
            let key = keyPath(context.codingPath)
            if key.hasSuffix(".transaction") {
                return .invalidSetting(
                    path: path, key: key, problem: "not one of \"read\", \"write\", \"infer\"",
                    fix: "Write \"infer\" to let txkit decide member by member, or \"read\" / \"write\"")
            }
            return .invalidSetting(path: path, key: key, problem: context.debugDescription, fix: "Correct the value")
        @unknown default:
            return .invalidSetting(path: path, key: "(the file)", problem: "\(error)", fix: "Correct the value")
        }
    }

    /// The shape of the value at `key` (Swift's decoding error names a
    /// type such as `Array<Any>`, which says little in a JSON file).
    private static func valueDescription(key: String) -> String {
        let last = key.split(separator: ".").last.map(String.init) ?? key
        switch last {
        case "sources", "mockImports", "shimImports", "wrapperImports", "excludedImports", "writeMembers", "readMembers":
            return "a list of strings, [\"…\"]"
        case "legacyTransactions":
            return "a list of objects, [{ \"type\": …, \"transaction\": …, \"bridge\": … }]"
        case "reverseBridge":
            return "an object, { \"read\": …, \"write\": … }"
        case "renamedMembers":
            return "an object of strings, { \"addCompletion\": \"addSyncCompletion\" }"
        case "transaction":
            return "a string: \"read\", \"write\" or \"infer\""
        default:
            if last.hasPrefix("legacyTransactions[") {
                return "an object, { \"type\": …, \"transaction\": …, \"bridge\": … }"
            }
            return "a string"
        }
    }

    private static func jsonKind(_ value: Any) -> String {
        switch value {
        case is [Any]: return "list"
        case is String: return "string"
        case is NSNumber: return "number"
        default: return "value"
        }
    }

    private static func jsonSyntaxProblem(_ error: any Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }

    /// Levenshtein distance, to suggest the key a misspelling meant.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
#endif
