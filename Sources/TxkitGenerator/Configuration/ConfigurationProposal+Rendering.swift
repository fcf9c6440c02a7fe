#if Txkit
extension ConfigurationProposal {
    /// `txkit.json`, as ``render()`` writes it, at the root.
    package var file: GeneratedFile {
        GeneratedFile(path: "txkit.json", contents: render())
    }

    /// The text of a starting `txkit.json`: every setting preceded by a
    /// `"// key"` comment entry (JSON has no comments; txkit ignores keys
    /// that start with `//`), legacy transaction types found first.
    package func render() -> String {
        var entries: [(key: String, value: String)] = []
        func comment(_ key: String, _ text: String) {
            entries.append(("// \(key)", Self.quoted(text)))
        }
        comment("txkit", "Settings of txkit init, inventory, shim, mock and convert. Keys starting with // are comments. "
            + "Reference: Guides/Configuration.md in TransactionKit.")
        comment("sources", "Folders (or files) whose Swift files hold the managers and the legacy finders, "
            + "relative to this file.")
        entries.append(("sources", Self.list(sources.map(Self.quoted))))
        if candidates.isEmpty {
            comment("legacyTransactions", "txkit init found no parameter of GRDB's Database or of a type named "
                + "…Transaction: add the type your legacy finders take, as in Guides/Configuration.md.")
            entries.append(("legacyTransactions", "[]"))
        } else {
            let found = candidates.map { "\($0.type) (\($0.parameterCount) parameter\($0.parameterCount == 1 ? "" : "s"))" }
            comment("legacyTransactions", "The types legacy finders take as their transaction, found by txkit init: "
                + found.joined(separator: ", ") + ". Remove those that are not. transaction: infer, read or write; "
                + "bridge: how a wrapper builds one from $tx, the TransactionKit transaction; reverseBridge: how code "
                + "holding one ($legacy) gets the TransactionKit transaction; renamedMembers: its members "
                + "TransactionKit's transaction has under another name.")
            let items = candidates.map { candidate in
                guard let setting = settings[candidate.type] else {
                    return "{ \"type\": \(Self.quoted(candidate.type)), \"transaction\": \"infer\", \"bridge\": "
                        + Self.quoted(Self.bridge(for: candidate.type)) + " }"
                }
                var item = "{ \"type\": \(Self.quoted(candidate.type)), \"transaction\": \(Self.quoted(setting.transaction)), "
                    + "\"bridge\": \(Self.quoted(setting.bridge))"
                if let reverse = setting.reverseBridge {
                    item += ", \"reverseBridge\": { \(Self.quoted(reverse.kind)): \(Self.quoted(reverse.expression)) }"
                }
                if !setting.renamedMembers.isEmpty {
                    let pairs = setting.renamedMembers.sorted { $0.key < $1.key }.map { "\(Self.quoted($0.key)): \(Self.quoted($0.value))" }
                    item += ", \"renamedMembers\": { \(pairs.joined(separator: ", ")) }"
                }
                return item + " }"
            }
            entries.append(("legacyTransactions", Self.list(items)))
        }
        comment("shimsFolder", "Where txkit shim writes shims and wrappers; $consumer is the manager's name.")
        entries.append(("shimsFolder", Self.quoted(shimsFolder)))
        comment("mocksFolder", "Where mocks go: a folder of your test target.")
        entries.append(("mocksFolder", Self.quoted(mocksFolder)))
        comment("mockImports", "Modules the mocks import besides TransactionKit and TransactionKitTesting: the one "
            + "that declares the managers and their shims, @testable because mocks extend the managers, which are "
            + "usually internal (write the module alone when they are public or package).")
        let module = shimsFolder.split(separator: "/").dropLast(2).last.map(String.init)
        entries.append(("mockImports", Self.list(module.map { [Self.quoted("@testable \($0)")] } ?? [])))
        comment("wrapperImports", "Modules wrappers import besides TransactionKit: the one that declares the bridge.")
        entries.append(("wrapperImports", Self.list([Self.quoted("TransactionKitSQLite")])))
        comment("excludedImports", "Imports of the legacy files that shims and mocks leave out.")
        entries.append(("excludedImports", Self.list([Self.quoted("GRDB")])))
        comment("accessLevel", "public, package or internal: the access level of shims and wrappers. txkit init "
            + "proposes public when the sources declare a public initializer (a manager's public initializer can "
            + "only default to a public wrapper), package otherwise.")
        entries.append(("accessLevel", Self.quoted(accessLevel.rawValue)))
        return "{\n" + entries.map { "  \(Self.quoted($0.key)): \($0.value)" }.joined(separator: ",\n") + "\n}\n"
    }

    /// The bridge txkit init proposes: GRDB's `Database` is what
    /// `shimOnlyBridge` returns; an app's own type is assumed to wrap it.
    static func bridge(for type: String) -> String {
        type == "Database" ? "try SQLiteDB.shimOnlyBridge($tx)" : "\(type)(try SQLiteDB.shimOnlyBridge($tx))"
    }

    private static func list(_ items: [String]) -> String {
        items.count < 2 ? "[\(items.joined())]" : "[\n    " + items.joined(separator: ",\n    ") + "\n  ]"
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
#endif
