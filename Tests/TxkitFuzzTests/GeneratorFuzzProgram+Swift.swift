#if Txkit
import Foundation

/// A program as the files of its folder: its module's sources
/// (`Sources/App`), the runner that prints every consumer method's result
/// (`Sources/Run`), the test target the mocks go to (`Tests`) and its
/// `txkit.json`.
extension FuzzProgram {
    var files: [String: String] {
        var files: [String: String] = [
            "txkit.json": configuration,
            "Sources/App/Entry.swift": entry,
            "Sources/Run/main.swift": """
                import \(module)

                for line in await FuzzEntry.results(path: CommandLine.arguments[1]) {
                    print(line)
                }

                """,
            "Tests/Placeholder.swift": "// The generated mocks of this program's pairs go to Mocks/.\n",
        ]
        if legacyTransaction == .appTransactions {
            files["Sources/App/AppTransaction.swift"] = appTransactionsSource
        }
        files.merge(serviceFiles) { first, _ in first }
        if usesTopLevelAlias {
            files["Sources/App/Connections.swift"] = """
                import GRDB

                /// The app's names for its legacy transactions.
                typealias DBConn = \(transactionType(writes: false))
                typealias DBWriteConn = \(transactionType(writes: true))

                """
        }
        if !chainedFinders.isEmpty {
            files["Sources/App/Services.swift"] = servicesSource
        }
        for finder in finders.indices {
            let (main, extensionSource) = sources(ofFinder: finder)
            files["Sources/App/\(finders[finder].name).swift"] = main
            if let extensionSource {
                files["Sources/App/\(finders[finder].name)+Queries.swift"] = extensionSource
            }
            if finders[finder].superclass == .ownFile {
                files["Sources/App/\(finders[finder].superclassName).swift"] = "import GRDB\n\n" + superclassSource(ofFinder: finder)
            }
        }
        for consumer in consumers.indices {
            files["Sources/App/\(consumers[consumer].name).swift"] = source(ofConsumer: consumer)
        }
        return files
    }

    var configuration: String {
        let transactions: String
        switch legacyTransaction {
        case .database:
            transactions = """
                    { "type": "Database", "transaction": "infer", "bridge": "try SQLiteDB.shimOnlyBridge($tx)" }
                """
        case .appTransactions:
            transactions = """
                    { "type": "AppReadTransaction", "transaction": "read", "bridge": "AppReadTransaction(try SQLiteDB.shimOnlyBridge($tx))",
                      "reverseBridge": { "read": "SQLiteDB.readTransaction(bridging: $legacy.database)" } },
                    { "type": "AppWriteTransaction", "transaction": "write", "bridge": "AppWriteTransaction(try SQLiteDB.shimOnlyBridge($tx))",
                      "reverseBridge": { "write": "SQLiteDB.writeTransaction(bridging: $legacy.database)" }\(holders.contains(.storage) ? ", \"renamedMembers\": { \"addCompletion\": \"addSyncCompletion\" }" : "") }
                """
        }
        return """
            {
              "sources": ["Sources/App"],
              "legacyTransactions": [
            \(transactions)
              ],
              "shimsFolder": "Sources/App/Shortcuts/$consumer",
              "mocksFolder": "Tests/Mocks",
              "mockImports": ["@testable \(module)"],
              "wrapperImports": ["TransactionKitSQLite"],
              "excludedImports": ["GRDB"],
              "accessLevel": "package"
            }

            """
    }

    // MARK: Finders

    func transactionType(writes: Bool) -> String {
        switch legacyTransaction {
        case .database: "Database"
        case .appTransactions: writes ? "AppWriteTransaction" : "AppReadTransaction"
        }
    }

    /// The finder's file, and the file of its extension when it has one.
    func sources(ofFinder index: Int) -> (String, String?) {
        let finder = finders[index]
        var inherited: [String] = []
        if finder.superclass != nil { inherited.append(finder.superclassName) }
        let declaration: String
        switch finder.kind {
        case let .finalClass(sendable):
            declaration = "final class \(finder.name)"
            if sendable { inherited.append("Sendable") }
        case .openClass: declaration = "open class \(finder.name)"
        case .structType: declaration = "struct \(finder.name)"
        case .enumOfStatics: declaration = "enum \(finder.name)"
        case .actor: declaration = "actor \(finder.name)"
        }
        if finder.conformsToQueries { inherited.append(finder.queriesName) }
        let inheritance = inherited.isEmpty ? "" : ": " + inherited.joined(separator: ", ")
        var lines = ["import GRDB", ""]
        if finder.superclass == .sameFile {
            lines.append(superclassSource(ofFinder: index))
        }
        lines += ["/// A legacy finder.", "\(declaration)\(inheritance) {"]
        if finder.usesTypealias {
            lines.append("    typealias ReadConnection = \(transactionType(writes: false))")
            lines.append("    typealias WriteConnection = \(transactionType(writes: true))")
        }
        if finder.kind.hasInstances {
            lines.append("    \(finder.superclass != nil ? "override " : "")init() {}")
            switch finder.singleton {
            case .property: lines.append("    static let shared = \(finder.name)()")
            case .function: lines.append("    static func shared() -> \(finder.name) { \(finder.name)() }")
            case .none: break
            }
        }
        if finder.isolatedLabel {
            lines.append("    var label: String { \"\(finder.name)\" }")
        } else if finder.hasLabel {
            lines.append("    \(finder.kind.hasInstances ? "" : "static ")let label = \"\(finder.name)\"")
        }
        var extensionLines = ["import GRDB", "", "extension \(finder.name) {"]
        let body = finder.members.filter { $0.placement == .body }
        for (position, member) in body.enumerated() {
            let memberLines = [""] + source(of: member, in: finder)
            if finder.splitsIntoExtension && position > 0 { extensionLines += memberLines } else { lines += memberLines }
        }
        lines.append("}")
        extensionLines.append("}")
        if finder.conformsToQueries {
            lines += ["", "/// Queries the app's finders share.", "protocol \(finder.queriesName) {}", "",
                      "extension \(finder.queriesName) {"]
            for member in finder.members where member.placement == .protocolExtension {
                lines += [""] + source(of: member, in: finder)
            }
            lines.append("}")
        }
        return (lines.joined(separator: "\n") + "\n",
                finder.splitsIntoExtension && body.count > 1 ? extensionLines.joined(separator: "\n") + "\n" : nil)
    }

    /// The declaration of a finder's open superclass, with the members
    /// placed there.
    func superclassSource(ofFinder index: Int) -> String {
        let finder = finders[index]
        var lines = ["/// The legacy finders' base class.", "open class \(finder.superclassName) {", "    init() {}"]
        for member in finder.members where member.placement == .superclass {
            lines += [""] + source(of: member, in: finder)
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A finder member's declaration and body.
    func source(of member: Member, in finder: Finder) -> [String] {
        let writes = member.operation.writes
        // The finder's own typealias is not in scope in its superclass or protocol.
        var type = finder.usesTypealias && member.placement == .body
            ? (writes ? "WriteConnection" : "ReadConnection")
            : finder.usesTopLevelAlias ? (writes ? "DBWriteConn" : "DBConn") : transactionType(writes: writes)
        if member.optionalTransaction { type += "?" }
        let parameter: String
        switch member.transactionLabel {
        case "db": parameter = "db: \(type)"
        case "_": parameter = "_ db: \(type)"
        default: parameter = "\(member.transactionLabel) db: \(type)"
        }
        let connection = legacyTransaction == .database ? "db" : "db.database"
        // An actor's members that take the legacy transaction run on the caller's thread.
        let isolation = finder.kind == .actor && member.placement == .body ? "nonisolated " : ""
        let prefix = isolation + (member.isStatic ? "static func" : "func")
        let effects = (member.isAsync ? " async" : "") + (member.throwing ? " throws" : "")
        /// `try x`, or `(try? x) ?? fallback` in a member that does not throw.
        func attempt(_ expression: String, else fallback: String) -> String {
            member.throwing ? "try \(expression)" : "(try? \(expression)) ?? \(fallback)"
        }
        /// Without a transaction, the member returns `fallback`.
        func unwrap(else fallback: String) -> [String] {
            member.optionalTransaction ? ["        guard let db else { return\(fallback.isEmpty ? "" : " " + fallback) }"] : []
        }
        /// The line that returns `expression`, after the `guard` if any.
        func value(_ expression: String) -> String {
            "        \(member.optionalTransaction ? "return " : "")\(expression)"
        }
        switch member.operation {
        case .name:
            return ["    \(prefix) name(id: Int64, \(parameter))\(effects) -> String? {"] + unwrap(else: "nil") +
                   [value("\(attempt("String.fetchOne(\(connection), sql: \"SELECT name FROM t WHERE id = ?\", arguments: [id])", else: "nil"))"),
                    "    }"]
        case .nameForID:
            return ["    \(prefix) name(forID id: Int64, \(parameter))\(effects) -> String? {"] + unwrap(else: "nil") +
                   [value("\(attempt("String.fetchOne(\(connection), sql: \"SELECT upper(name) FROM t WHERE id = ?\", arguments: [id])", else: "nil"))"),
                    "    }"]
        case .count:
            return ["    \(prefix) count(\(parameter))\(effects) -> Int {"] + unwrap(else: "-1") +
                   [value("\(attempt("Int.fetchOne(\(connection), sql: \"SELECT COUNT(*) FROM t\")", else: "nil")) ?? -1"),
                    "    }"]
        case .countPrefix:
            return ["    \(prefix) count(prefix: String, \(parameter))\(effects) -> Int {"] + unwrap(else: "-1") +
                   [value("\(attempt("Int.fetchOne(\(connection), sql: \"SELECT COUNT(*) FROM t WHERE name LIKE ?\", arguments: [prefix + \"%\"])", else: "nil")) ?? -1"),
                    "    }"]
        case .insert:
            return ["    \(prefix) insert(name: String, \(parameter))\(effects) -> Int64 {"] + unwrap(else: "-1") +
                   ["        \(member.throwing ? "try" : "try?") \(connection).execute(sql: \"INSERT INTO t(name) VALUES (?)\", arguments: [name])",
                    "        return \(connection).lastInsertedRowID",
                    "    }"]
        case .forEachName:
            return ["    \(prefix) forEachName(\(parameter), _ body: (String) -> Void)\(effects) {"] + unwrap(else: "") +
                   ["        for name in \(attempt("String.fetchAll(\(connection), sql: \"SELECT name FROM t ORDER BY id\")", else: "[]")) {",
                    "            body(name)",
                    "        }",
                    "    }"]
        case .value:
            return ["    \(prefix) value<T: DatabaseValueConvertible>(id: Int64, as type: T.Type, \(parameter))\(effects) -> T? {"] + unwrap(else: "nil") +
                   [value("\(attempt("T.fetchOne(\(connection), sql: \"SELECT name FROM t WHERE id = ?\", arguments: [id])", else: "nil"))"),
                    "    }"]
        }
    }

    /// `Services.shared`, which holds the finders reached through a chain.
    var servicesSource: String {
        var lines = ["/// The app's shared services.", "final class Services: Sendable {", "    static let shared = Services()"]
        for finder in chainedFinders {
            lines.append("    let \(Self.property(finders[finder].name)) = \(finders[finder].name)()")
        }
        lines += ["    init() {}", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Consumers

    static func property(_ finder: String) -> String {
        finder.prefix(1).lowercased() + finder.dropFirst()
    }

    /// The call of `member` with `transaction` as its legacy transaction
    /// (a trailing closure for ``Operation/forEachName``).
    func call(_ member: Member, method: String, transaction: String) -> String {
        let argument: String
        switch member.transactionLabel {
        case "_": argument = transaction
        default: argument = "\(member.transactionLabel): \(transaction)"
        }
        switch member.operation {
        case .name: return "name(id: 2, \(argument))"
        case .nameForID: return "name(forID: 3, \(argument))"
        case .count: return "count(\(argument))"
        case .countPrefix: return "count(prefix: \"n\", \(argument))"
        case .insert: return "insert(name: \"\(module).\(method)\", \(argument))"
        case .forEachName: return "forEachName(\(argument)) { names.append($0) }"
        case .value: return "value(id: 3, as: String.self, \(argument))"
        }
    }

    /// The statements of a method that call `member` on `receiver` and
    /// return a description of the result (and of `receiver.label`).
    func statements(_ method: Method, member: Member, receiver: String, transaction: String) -> [String] {
        let needsTry = member.throwing || transaction.contains("try ")
        let call = "\(needsTry ? "try " : "")\(member.isAsync ? "await " : "")"
            + "\(receiver).\(self.call(member, method: method.name, transaction: transaction))"
        var lines: [String] = []
        let result: String
        if member.operation == .forEachName {
            lines.append("var names: [String] = []")
            lines.append(call)
            result = "names.joined(separator: \",\")"
        } else {
            result = "String(describing: \(call))"
        }
        if method.readsLabel {
            let awaits = finders[method.finder].isolatedLabel ? "await " : ""
            lines.append("return String(describing: \(awaits)\(receiver).label) + \" \" + \(result)")
        } else {
            lines.append("return \(result)")
        }
        return lines
    }

    /// The parameter a method of a `received` consumer takes.
    func receivedParameter(writes: Bool) -> String {
        legacyTransaction == .database ? "db: Database" : "transaction: \(transactionType(writes: writes))"
    }

    func source(ofConsumer index: Int) -> String {
        let consumer = consumers[index]
        var lines = ["import GRDB", "import TransactionKit", "import TransactionKitSQLite", "", "/// A manager."]
        lines.append("final class \(consumer.name)\(consumer.isSendable ? ": Sendable" : "") {")
        var initParameters: [String] = []
        var initBody: [String] = []
        switch consumer.shape {
        case .bridged:
            let database = consumer.isAsync ? "any AsyncDB" : "any DB"
            lines.append("    let db: \(database)")
            initParameters.append("db: \(database)")
            initBody.append("self.db = db")
        case let .pool(holdsAdopted):
            let type = usesQueue ? "DatabaseQueue" : "DatabasePool"
            lines.append("    let dbPool: \(type)")
            initParameters.append("dbPool: \(type)")
            initBody.append("self.dbPool = dbPool")
            if holdsAdopted {
                lines.append("    let sqlite: SQLiteDB")
                initParameters.append("sqlite: SQLiteDB")
                initBody.append("self.sqlite = sqlite")
            }
        case .received:
            break
        }
        if case .received(holdsAdopted: true) = consumer.shape {
            lines.append("    let sqlite: SQLiteDB")
            initParameters.append("sqlite: SQLiteDB")
            initBody.append("self.sqlite = sqlite")
        }
        for finderIndex in consumer.accesses.keys.sorted() {
            let finder = finders[finderIndex].name, property = Self.property(finder)
            switch consumer.accesses[finderIndex]! {
            case let .injected(defaulted):
                lines.append("    let \(property): \(finder)")
                initParameters.append("\(property): \(finder)\(defaulted ? " = \(finder)()" : "")")
                initBody.append("self.\(property) = \(property)")
            case let .inline(isPrivate, typed):
                lines.append("    \(isPrivate ? "private " : "")let \(property)\(typed ? ": \(finder)" : "") = \(finder)()")
            case .optional:
                lines.append("    var \(property): \(finder)?")
                initParameters.append("\(property): \(finder)?")
                initBody.append("self.\(property) = \(property)")
            case .weak:
                lines.append("    weak var \(property): \(finder)?")
                initParameters.append("\(property): \(finder)")
                initBody.append("self.\(property) = \(property)")
            case .statics, .singleton, .sharedFunction, .local, .parameter, .chain, .temporary:
                break
            }
        }
        lines.append("")
        lines.append("    init(\(initParameters.joined(separator: ", "))) {")
        lines += initBody.map { "        \($0)" }
        lines.append("    }")
        for method in consumer.methods {
            let finder = finders[method.finder], member = finder.members[method.member]
            let access = consumer.accesses[method.finder]!
            let property = Self.property(finder.name)
            let writes = member.operation.writes
            var parameters: [String] = []
            var body: [String] = []
            let receiver: String
            switch access {
            case .injected, .inline: receiver = property
            case .optional, .weak: receiver = "\(property)?"
            case .statics: receiver = finder.name
            case .singleton: receiver = "\(finder.name).shared"
            case .sharedFunction: receiver = "\(finder.name).shared()"
            case .chain: receiver = "Services.shared.\(property)"
            case .temporary: receiver = "\(finder.name)()"
            case .local:
                receiver = property
                body.append("let \(property) = \(finder.name)()")
            case .parameter:
                receiver = property
                parameters.append("\(property): \(finder.name)")
            }
            switch consumer.shape {
            case let .bridged(local):
                let bridge = legacyTransaction == .database
                    ? "try SQLiteDB.shimOnlyBridge(tx)" : "\(transactionType(writes: writes))(try SQLiteDB.shimOnlyBridge(tx))"
                body.append("return try \(consumer.isAsync ? "await " : "")db.\(writes ? "write" : "read") { tx in")
                if local {
                    body.append("    let legacy = \(bridge)")
                    body += statements(method, member: member, receiver: receiver, transaction: "legacy").map { "    \($0)" }
                } else {
                    body += statements(method, member: member, receiver: receiver, transaction: bridge).map { "    \($0)" }
                }
                body.append("}")
            case .pool:
                let transaction = legacyTransaction == .database ? "db" : "\(transactionType(writes: writes))(db)"
                body.append("return try dbPool.\(writes ? "write" : "read") { db in")
                body += statements(method, member: member, receiver: receiver, transaction: transaction).map { "    \($0)" }
                body.append("}")
            case .received:
                parameters.append(receivedParameter(writes: writes))
                let transaction = legacyTransaction == .database ? "db" : "transaction"
                body += statements(method, member: member, receiver: receiver, transaction: transaction)
            }
            lines.append("")
            let effects = (consumer.isAsync ? " async" : "") + (method.throwing ? " throws" : "")
            lines.append("    func \(method.name)(\(parameters.joined(separator: ", ")))\(effects) -> String {")
            lines += body.map { "        \($0)" }
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Entry

    /// `FuzzEntry.results(path:)`: the production wiring and one line per
    /// consumer method, on a real SQLite database at `path`.
    var entry: String {
        let pool = usesQueue ? "DatabaseQueue" : "DatabasePool"
        var lines = [
            "import GRDB", "import TransactionKit", "import TransactionKitSQLite", "",
            "/// The app's wiring, and what each consumer method returns on a fresh database.",
            "public enum FuzzEntry {",
            "    public static func results(path: String) async -> [String] {",
            "        var lines: [String] = []",
            "        do {",
            "            let pool = try database(path: path)",
        ] + adoption.map { "            " + $0 } + [
            "            // The app keeps the database it adopted at startup.",
            "            defer { withExtendedLifetime(sqlite) {} }",
        ] + serviceWiring.map { "            " + $0 }
        for (index, consumer) in consumers.enumerated() {
            var arguments: [String] = []
            switch consumer.shape {
            case .bridged: arguments.append("db: sqlite")
            case let .pool(holdsAdopted): arguments += ["dbPool: pool"] + (holdsAdopted ? ["sqlite: sqlite"] : [])
            case let .received(holdsAdopted): arguments += holdsAdopted ? ["sqlite: sqlite"] : []
            }
            for finderIndex in consumer.accesses.keys.sorted() {
                let finder = finders[finderIndex].name
                switch consumer.accesses[finderIndex]! {
                case .injected, .optional:
                    arguments.append("\(Self.property(finder)): \(finder)()")
                case .weak:
                    // Only this local holds it, so that clearing it below
                    // shows whether the consumer still holds it weakly.
                    lines.append("            var kept\(index)\(finder): \(finder)? = \(finder)()")
                    arguments.append("\(Self.property(finder)): kept\(index)\(finder)!")
                default:
                    break
                }
            }
            lines.append("            let c\(index) = \(consumer.name)(\(arguments.joined(separator: ", ")))")
            for method in consumer.methods {
                lines.append(recordLine(consumer: index, method: method))
            }
        }
        if consumers.contains(where: { $0.accesses.values.contains(.weak) }) {
            lines.append("            // Released: the consumers that held a finder weakly no longer reach it.")
            for (index, consumer) in consumers.enumerated() {
                for finder in consumer.accesses.keys.sorted() where consumer.accesses[finder] == .weak {
                    lines.append("            kept\(index)\(finders[finder].name) = nil")
                }
            }
            for (index, consumer) in consumers.enumerated() {
                for method in consumer.methods where consumer.accesses[method.finder] == .weak {
                    lines.append(recordLine(consumer: index, method: method, suffix: " after release"))
                }
            }
        }
        lines += [
            "        } catch {",
            "            lines.append(\"setup failed: \\(error)\")",
            "        }",
            "        return lines",
            "    }",
            "",
            "    /// A fresh database with the table `t` and three rows (outside",
            "    /// `results`, which is async: there GRDB's async `write` is the one called).",
            "    static func database(path: String) throws -> \(pool) {",
            "        let pool = try \(pool)(path: path)",
            "        try pool.write { db in",
            "            try db.execute(sql: \"CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)\")",
            "            try db.execute(sql: \"INSERT INTO t(name) VALUES ('alpha'), ('nuts'), ('nougat')\")",
        ] + tagTable + [
            "        }",
            "        return pool",
            "    }",
            "",
            "    static func record(_ name: String, _ body: () throws -> String) -> String {",
            "        do { return \"\\(name): \\(try body())\" } catch { return \"\\(name): error \\(error)\" }",
            "    }",
            "",
            "    static func recordAsync(_ name: String, _ body: () async throws -> String) async -> String {",
            "        do { return \"\\(name): \\(try await body())\" } catch { return \"\\(name): error \\(error)\" }",
            "    }",
            "}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The table of the record's association, and its rows.
    private var tagTable: [String] {
        guard record != nil else { return [] }
        return [
            "            try db.execute(sql: \"CREATE TABLE tag(id INTEGER PRIMARY KEY, itemId INTEGER NOT NULL REFERENCES t(id), label TEXT NOT NULL)\")",
            "            try db.execute(sql: \"INSERT INTO tag(itemId, label) VALUES (1, 'red'), (2, 'blue'), (2, 'green')\")",
        ]
    }

    /// `lines.append(record(…))`: one call of a consumer method, its
    /// result labelled with the consumer, the method and `suffix`.
    private func recordLine(consumer index: Int, method: Method, suffix: String = "") -> String {
        let consumer = consumers[index]
        let finder = finders[method.finder], member = finder.members[method.member]
        var callArguments: [String] = []
        if consumer.accesses[method.finder] == .parameter {
            callArguments.append("\(Self.property(finder.name)): \(finder.name)()")
        }
        let label = "\"\(consumer.name).\(method.name)\(suffix)\""
        let writes = member.operation.writes
        let call = { (arguments: [String]) in "c\(index).\(method.name)(\(arguments.joined(separator: ", ")))" }
        if consumer.shape.receives && consumer.isAsync {
            // The app bridges its legacy transaction in an async block of the adopted database.
            let bridge = legacyTransaction == .database
                ? "try SQLiteDB.shimOnlyBridge(tx)" : "\(transactionType(writes: writes))(try SQLiteDB.shimOnlyBridge(tx))"
            callArguments.append(legacyTransaction == .database ? "db: \(bridge)" : "transaction: \(bridge)")
            return "            lines.append(await recordAsync(\(label)) { try await sqlite.\(writes ? "write" : "read") { tx in "
                + "try await \(call(callArguments)) } })"
        }
        if consumer.shape.receives {
            let transaction = legacyTransaction == .database ? "db" : "\(transactionType(writes: writes))(db)"
            callArguments.append(legacyTransaction == .database ? "db: db" : "transaction: \(transaction)")
            let attempt = method.throwing ? "try " : ""
            return "            lines.append(record(\(label)) { try pool.\(writes ? "write" : "read") { db in "
                + "\(attempt)\(call(callArguments)) } })"
        }
        if consumer.isAsync {
            return "            lines.append(await recordAsync(\(label)) { try await \(call(callArguments)) })"
        }
        return "            lines.append(record(\(label)) { try \(call(callArguments)) })"
    }

    /// The program as a fixture test to paste: its seed and its sources.
    var fixture: String {
        var text = "// GeneratorFuzz \(module), seed \(seed): FuzzProgram.random(module: \"\(module)\", seed: \(seed))\n"
        for (path, source) in files.sorted(by: { $0.key < $1.key }) where path.hasPrefix("Sources/App") || path == "txkit.json" {
            text += "// ---- \(path)\n\(source)"
        }
        return text
    }
}
#endif
