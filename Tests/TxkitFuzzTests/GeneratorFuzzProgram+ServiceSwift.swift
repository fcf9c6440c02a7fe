#if Txkit
import Foundation

/// The services as Swift: the record, the holders, the support types and
/// each service's file, and the lines of `FuzzEntry` that wire and call them.
extension FuzzProgram {
    /// The files the services add (path in the program → text).
    var serviceFiles: [String: String] {
        guard let record else { return [:] }
        var files: [String: String] = ["Sources/App/Item.swift": recordSource(record)]
        files["Sources/App/Support.swift"] = supportSource
        for holder in holders {
            files["Sources/App/\(holder.typeName).swift"] = source(of: holder)
        }
        for index in services.indices {
            files["Sources/App/\(services[index].name).swift"] = source(ofService: index)
        }
        return files
    }

    /// The program's pool type.
    var poolType: String { usesQueue ? "DatabaseQueue" : "DatabasePool" }

    // MARK: Records

    func recordSource(_ kind: RecordKind) -> String {
        let declaration: String
        switch kind {
        case .persistableStruct:
            declaration = """
                /// A row of `t`, as GRDB's records are written.
                struct Item: Codable, FetchableRecord, PersistableRecord, Sendable {
                    var id: Int64?
                    var name: String
                    static let databaseTableName = "t"
                }
                """
        case .mutableStruct:
            declaration = """
                /// A row of `t`, its id set when inserted.
                struct Item: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
                    var id: Int64?
                    var name: String
                    static let databaseTableName = "t"

                    mutating func didInsert(_ inserted: InsertionSuccess) {
                        id = inserted.rowID
                    }
                }
                """
        case .finalClass:
            declaration = """
                /// A row of `t`, as a class.
                final class Item: Codable, FetchableRecord, PersistableRecord {
                    var id: Int64?
                    var name: String
                    static let databaseTableName = "t"

                    init(id: Int64?, name: String) {
                        self.id = id
                        self.name = name
                    }

                    func didInsert(_ inserted: InsertionSuccess) {
                        id = inserted.rowID
                    }
                }
                """
        }
        let parameter = legacyParameter(writes: false)
        let writeParameter = legacyParameter(writes: true)
        let connection = legacyTransaction == .database ? "db" : "transaction.database"
        return """
            import GRDB

            \(declaration)

            /// The record's own finders, which take the app's transaction.
            extension Item {
                static func named(_ name: String, \(parameter)) throws -> Item? {
                    try Item.filter(Column("name") == name).fetchOne(\(connection))
                }

                static func fetchOrDefault(id: Int64, \(parameter)) throws -> Item {
                    try Item.fetchOne(\(connection), key: id) ?? Item(id: id, name: "default")
                }

                \(kind.isClass ? "" : "mutating ")func rename(to name: String, \(writeParameter)) throws {
                    self.name = name
                    try update(\(connection))
                }
            }

            /// A tag of an item.
            struct Tag: Codable, FetchableRecord, PersistableRecord, Sendable {
                var id: Int64?
                var itemId: Int64
                var label: String
                static let databaseTableName = "tag"
                static let item = belongsTo(Item.self, key: "item", using: ForeignKey(["itemId"]))
            }

            /// A tag and its item.
            struct TagInfo: Decodable, FetchableRecord\(kind.isClass ? "" : ", Sendable") {
                var tag: Tag
                var item: Item
            }

            """
    }

    /// `db: Database`, or `transaction: AppReadTransaction`.
    func legacyParameter(writes: Bool) -> String {
        legacyTransaction == .database ? "db: Database" : "transaction: \(transactionType(writes: writes))"
    }

    // MARK: Holders and support

    /// A holder's file. The first holder of the program adopts the pool
    /// (where the app opens it); the app hands that database to the others,
    /// so that the pool is adopted once.
    func source(of holder: Holder) -> String {
        let adopts = holder == holders.first
        switch holder {
        case .appDatabase:
            return """
                import GRDB
                import TransactionKitSQLite

                /// The app's database, as GRDB's demo apps hold it.
                final class AppDatabase: Sendable {
                    nonisolated(unsafe) static var shared: AppDatabase!
                    let dbWriter: any DatabaseWriter
                    var reader: any DatabaseReader { dbWriter }
                    let sqlite: SQLiteDB

                    \(adopts ? "init(_ dbWriter: any DatabaseWriter) throws {" : "init(_ dbWriter: any DatabaseWriter, sqlite: SQLiteDB) {")
                        self.dbWriter = dbWriter
                        \(adopts ? "sqlite = try SQLiteDB(adopting: dbWriter)" : "self.sqlite = sqlite")
                    }
                }

                """
        case .storage:
            return """
                import GRDB
                import TransactionKitSQLite

                /// Opens the app's transactions; completions run after the commit.
                final class Storage: Sendable {
                    nonisolated(unsafe) static var shared: Storage!
                    private let pool: \(poolType)
                    let sqlite: SQLiteDB

                    \(adopts ? "init(pool: \(poolType)) throws {" : "init(pool: \(poolType), sqlite: SQLiteDB) {")
                        self.pool = pool
                        \(adopts ? "sqlite = try SQLiteDB(adopting: pool)" : "self.sqlite = sqlite")
                    }

                    func read<T>(_ block: (AppReadTransaction) throws -> T) throws -> T {
                        try pool.read { db in try block(AppReadTransaction(db)) }
                    }

                    @discardableResult
                    func write<T>(_ block: (AppWriteTransaction) throws -> T) throws -> T {
                        var completions: [() -> Void] = []
                        let result = try pool.write { db -> T in
                            let transaction = AppWriteTransaction(db)
                            let value = try block(transaction)
                            completions = transaction.drainCompletions()
                            return value
                        }
                        completions.forEach { $0() }
                        return result
                    }

                    /// Runs `block` in a write; `completion` gets its error, if any.
                    func asyncWrite(block: @escaping (AppWriteTransaction) throws -> Void, completion: ((Error?) -> Void)?) {
                        do {
                            try write(block)
                            completion?(nil)
                        } catch {
                            completion?(error)
                        }
                    }
                }

                """
        case .poolActor:
            return """
                import GRDB
                import TransactionKitSQLite

                /// The app's pool, behind an actor.
                actor PoolActor {
                    nonisolated(unsafe) static var shared: PoolActor!
                    nonisolated let pool: \(poolType)
                    nonisolated let sqlite: SQLiteDB

                    \(adopts ? "init(pool: \(poolType)) throws {" : "init(pool: \(poolType), sqlite: SQLiteDB) {")
                        self.pool = pool
                        \(adopts ? "sqlite = try SQLiteDB(adopting: pool)" : "self.sqlite = sqlite")
                    }

                    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
                        try await pool.read(body)
                    }

                    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
                        try await pool.write(body)
                    }
                }

                """
        }
    }

    var supportSource: String {
        var lines = [
            "/// What the services throw.",
            "enum FuzzError: Error {",
            "    case missing",
            "    case notConfigured",
            "}",
            "",
            "/// What completions record, in order.",
            "final class EventLog {",
            "    private(set) var entries: [String] = []",
            "    init() {}",
            "    func record(_ entry: String) { entries.append(entry) }",
            "    var summary: String { entries.joined(separator: \",\") }",
            "}",
        ]
        if let holder = environmentHolder {
            lines += [
                "",
                "/// Process-wide dependencies, set up at launch.",
                "struct AppEnvironment {",
                "    var database: \(holder.typeName)!",
                "    var label = \"env\"",
                "    nonisolated(unsafe) static var current = AppEnvironment()",
                "}",
            ]
        }
        if usesDependencies {
            lines += ["", "/// The shared objects every service needs.", "final class Dependencies: Sendable {",
                      "    nonisolated(unsafe) static var shared: Dependencies!"]
            for holder in holders { lines.append("    let \(holder.property): \(holder.typeName)") }
            lines.append("    let label: String")
            let parameters = holders.map { "\($0.property): \($0.typeName)" } + ["label: String"]
            lines.append("    init(\(parameters.joined(separator: ", "))) {")
            for holder in holders { lines.append("        self.\(holder.property) = \(holder.property)") }
            lines += ["        self.label = label", "    }", "}"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The app's transaction classes, with the completion hook `Storage` runs.
    var appTransactionsSource: String {
        var text = """
            import GRDB

            /// The app's read transaction: GRDB's connection, inside a read.
            class AppReadTransaction {
                let database: Database
                init(_ database: Database) { self.database = database }
            }

            """
        if holders.contains(.storage) {
            text += """

                /// The app's write transaction; completions run after the commit.
                final class AppWriteTransaction: AppReadTransaction {
                    private var completions: [() -> Void] = []

                    func addCompletion(_ block: @escaping () -> Void) {
                        completions.append(block)
                    }

                    func drainCompletions() -> [() -> Void] {
                        defer { completions = [] }
                        return completions
                    }
                }

                """
        } else {
            text += """

                /// The app's write transaction.
                final class AppWriteTransaction: AppReadTransaction {}

                """
        }
        return text
    }

    // MARK: A service

    /// What a block gives its code: the closure's parameter, GRDB's
    /// connection, and the app's transaction for members that take one.
    struct BlockContext {
        var parameter: String
        var connection: String
        var legacyRead: String
        var legacyWrite: String
        /// Code in an escaping `@Sendable` closure names `self.` explicitly.
        var explicitSelf: Bool

        func legacy(writes: Bool) -> String { writes ? legacyWrite : legacyRead }
    }

    func source(ofService index: Int) -> String {
        let service = services[index]
        var lines = ["import GRDB"] + (service.bridges ? ["import TransactionKit", "import TransactionKitSQLite"] : []) + [""]
        lines.append("/// A service.")
        let sendable = service.isSendable ? ": Sendable" : ""
        lines.append(service.isActor ? "actor \(service.name) {" : "final class \(service.name)\(sendable) {")
        var parameters: [String] = []
        var body: [String] = []
        func stored(_ name: String, _ type: String, default value: String? = nil) {
            lines.append("    private let \(name): \(type)")
            parameters.append("\(name): \(type)\(value.map { " = \($0)" } ?? "")")
            body.append("self.\(name) = \(name)")
        }
        switch service.source {
        case .pool: stored("dbPool", poolType)
        case .writer: stored("dbWriter", "any DatabaseWriter")
        case .reader: stored("reader", "any DatabaseReader")
        case let .holder(holder, defaulted):
            stored(holder.property, holder.typeName, default: defaulted ? "\(holder.typeName).shared" : nil)
        case let .dependencies(holder, computed):
            stored("dependencies", "Dependencies", default: "Dependencies.shared")
            if computed {
                lines.append("    private var \(holder.property): \(holder.typeName) { dependencies.\(holder.property) }")
            }
        case .global, .environment:
            break
        }
        for finderIndex in service.accesses.keys.sorted() {
            let finder = finders[finderIndex].name, property = Self.property(finder)
            switch service.accesses[finderIndex]! {
            case let .injected(defaulted): stored(property, finder, default: defaulted ? "\(finder)()" : nil)
            case let .inline(isPrivate, _): lines.append("    \(isPrivate ? "private " : "")let \(property): \(finder) = \(finder)()")
            default: break
            }
        }
        if service.recordsEvents {
            lines.append("    private let events = EventLog()")
        }
        lines.append("")
        lines.append("    init(\(parameters.joined(separator: ", "))) {")
        lines += body.map { "        \($0)" }
        lines.append("    }")
        for method in service.methods {
            lines.append("")
            lines += source(of: method, in: service).map { "    " + $0 }
        }
        for writes in service.helpers {
            lines.append("")
            lines += helperSource(writes: writes, in: service).map { "    " + $0 }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The expression a block is opened on, and what the method does first
    /// (`guard let database = AppEnvironment.current.database else { throw … }`).
    func receiver(of service: Service, writes: Bool, method: Int) -> (prelude: [String], receiver: String) {
        func base(_ holder: Holder) -> String {
            switch service.source {
            case .global: "\(holder.typeName).shared"
            case let .dependencies(_, computed): computed ? holder.property : "dependencies.\(holder.property)"
            case .environment: "database"
            default: holder.property
            }
        }
        var prelude: [String] = []
        if case .environment = service.source {
            prelude.append("guard let database = AppEnvironment.current.database else { throw FuzzError.notConfigured }")
        }
        switch service.source {
        case .pool: return (prelude, "dbPool")
        case .writer: return (prelude, "dbWriter")
        case .reader: return (prelude, "reader")
        default: break
        }
        let holder = service.source.holder!
        switch holder {
        case .appDatabase: return (prelude, base(holder) + (writes || method % 2 == 0 ? ".dbWriter" : ".reader"))
        case .storage, .poolActor: return (prelude, base(holder))
        }
    }

    func source(of method: ServiceMethod, in service: Service) -> [String] {
        let methodIndex = Int(method.name.dropFirst()) ?? 0
        let block = method.block
        let isAsync = block.isAsync || service.isActor || service.source.holder?.isAsync == true
        let tag = "\(module).\(service.name).\(method.name)"
        var parameters = ""
        if case let .received(writes) = block {
            parameters = legacyParameter(writes: writes)
        }
        if case let .bridged(writes) = block {
            parameters = "tx: \(writes ? "DBWriteTransaction" : "DBReadTransaction")"
        }
        var lines = ["func \(method.name)(\(parameters))\(isAsync ? " async" : "") throws -> String {"]
        let (prelude, receiver) = receiver(of: service, writes: block.writes, method: methodIndex)
        let usesStorage = service.source.holder == .storage
        let parameter = usesStorage ? "transaction" : "db"
        var context = BlockContext(
            parameter: parameter, connection: usesStorage ? "transaction.database" : "db",
            legacyRead: legacyTransaction == .database ? "db" : usesStorage ? "transaction" : "AppReadTransaction(db)",
            legacyWrite: legacyTransaction == .database ? "db" : usesStorage ? "transaction" : "AppWriteTransaction(db)",
            // The holder's `asyncWrite(block:)` closure escapes: it names `self`.
            explicitSelf: isAsync || block == .holderAsyncWrite)
        if case .bridged = block {
            context = BlockContext(parameter: "", connection: "db", legacyRead: "db", legacyWrite: "db", explicitSelf: false)
        }
        if case .received = block {
            context = BlockContext(
                parameter: "", connection: legacyTransaction == .database ? "db" : "transaction.database",
                legacyRead: legacyTransaction == .database ? "db" : "transaction",
                legacyWrite: legacyTransaction == .database ? "db" : "transaction", explicitSelf: false)
        }
        let (steps, values) = stepsSource(method.steps, in: service, context: context, tag: tag)
        var result = values.isEmpty ? "\"done\"" : "[\(values.map { "String(describing: \($0))" }.joined(separator: ", "))].joined(separator: \" \")"
        let trying = "try " + (isAsync ? "await " : "")
        var suffix = ""
        if method.readsLabel, case let .dependencies(holder, _) = service.source {
            _ = holder
            suffix = " + \" \" + dependencies.label"
        }
        if service.recordsEvents && method.steps.contains(.completion) {
            suffix += " + \" | \" + events.summary"
        }
        // A method that receives its transaction reads no database: no
        // lookup (it would bind a local nothing uses, a compiler warning).
        var body = prelude
        if case .received = block { body = [] }
        if case .bridged = block { body = ["let db = try SQLiteDB.shimOnlyBridge(tx)"] }
        let opening = "\(receiver).\(block.writes ? "write" : "read") { \(context.parameter) in"
        switch block {
        case .read, .write, .asyncRead, .asyncWrite:
            if suffix.isEmpty {
                body.append("return \(trying)\(opening)")
            } else {
                body.append("let value = \(trying)\(opening)")
            }
            body += steps.map { "    " + $0 } + ["    return \(result)", "}"]
            if !suffix.isEmpty { body.append("return value\(suffix)") }
        case let .inTransaction(rollsBack):
            body += ["var result = \"\"", "try \(receiver).inTransaction { db in"]
            body += steps.map { "    " + $0 } + ["    result = \(result)", "    return \(rollsBack ? ".rollback" : ".commit")", "}",
                                                 "return result\(suffix)"]
        case .handsRows:
            let sql = "\"SELECT id, name FROM t ORDER BY id\""
            body += [
                "let rows = \(trying)\(receiver).read { \(context.parameter) in try Row.fetchAll(\(context.connection), sql: \(sql)) }",
                "return rows.map { row -> String in",
                "    let id: Int64 = row[\"id\"]",
                "    let name: String = row[\"name\"]",
                "    return \"\\(id)=\\(name)\"",
                "}.joined(separator: \",\")\(suffix)",
            ]
        case .received, .bridged:
            body += steps + ["return \(result)\(suffix)"]
        case .holderAsyncWrite:
            result = values.isEmpty ? "\"done\"" : result
            body += ["var values: [String] = []", "var outcome = \"pending\"",
                     "\(receiver).asyncWrite(block: { \(context.parameter) in"]
            body += steps.map { "    " + $0 } + ["    values.append(\(result))", "}, completion: { error in",
                                                 "    outcome = error == nil ? \"done\" : \"failed\"", "})",
                                                 "return outcome + \" \" + values.joined(separator: \",\")\(suffix)"]
        }
        lines += body.map { "    " + $0 }
        lines.append("}")
        return lines
    }

    /// The statements of `steps`, and the names of the values they leave.
    func stepsSource(_ steps: [Step], in service: Service, context: BlockContext, tag: String) -> ([String], [String]) {
        var lines: [String] = []
        var values: [String] = []
        let c = context.connection
        let recordBinding = record?.isClass == true ? "let" : "var"
        let selfPrefix = context.explicitSelf ? "self." : ""
        for (n, step) in steps.enumerated() {
            let v = "v\(n)"
            let label = legacyTransaction == .database ? "db" : "transaction"
            switch step {
            case let .finder(finderIndex, memberIndex):
                let finder = finders[finderIndex], member = finder.members[memberIndex]
                let receiver: String
                switch service.accesses[finderIndex] {
                case .statics?: receiver = finder.name
                case .singleton?: receiver = "\(finder.name).shared"
                default: receiver = selfPrefix + Self.property(finder.name)
                }
                let call = self.call(member, method: "\(service.name).m", transaction: context.legacy(writes: member.operation.writes))
                lines.append("let \(v) = \(member.throwing ? "try " : "")\(receiver).\(call)")
            case .fetchOneKey:
                lines.append("let \(v) = try Item.fetchOne(\(c), key: 2)?.name")
            case .fetchAllNames:
                lines.append("let \(v) = try Item.fetchAll(\(c)).map(\\.name).joined(separator: \",\")")
            case .fetchCount:
                lines.append("let \(v) = try Item.fetchCount(\(c))")
            case .exists:
                lines.append("let \(v) = try Item.exists(\(c), key: 3)")
            case .queryChain:
                lines.append("let prefix\(n) = \"n\"")
                lines.append("let \(v) = try Item.filter(Column(\"name\").like(prefix\(n) + \"%\")).order(Column(\"name\").desc, Column(\"id\")).limit(2).fetchAll(\(c)).map(\\.name)")
            case .rawCount:
                lines.append("let \(v) = try Int.fetchOne(\(c), sql: \"SELECT COUNT(*) FROM t WHERE name LIKE ?\", arguments: [\"n%\"]) ?? -1")
            case .rowsMapped:
                lines += [
                    "let \(v) = try Row.fetchAll(\(c), sql: \"SELECT id, name FROM t WHERE id <= ? ORDER BY id\", arguments: [2]).map { row -> String in",
                    "    let id: Int64 = row[\"id\"]",
                    "    let name: String = row[\"name\"]",
                    "    return \"\\(id)=\\(name)\"",
                    "}.joined(separator: \",\")",
                ]
            case .association:
                lines.append("let \(v) = try Tag.including(required: Tag.item).order(Column(\"id\")).asRequest(of: TagInfo.self).fetchAll(\(c)).map { \"\\($0.tag.label)@\\($0.item.name)\" }")
            case .staticFinder:
                lines.append("let \(v) = try Item.named(\"nuts\", \(label): \(context.legacy(writes: false)))?.id")
            case let .helper(writes):
                let call = writes ? "appendName(\"\(tag).\(n)\"" : "countNamed(\"nuts\""
                lines.append("let \(v) = try \(selfPrefix)\(call), \(label): \(context.legacy(writes: writes)))")
            case .insert:
                if record == .persistableStruct {
                    lines.append("try Item(id: nil, name: \"\(tag).\(n)\").insert(\(c))")
                    lines.append("let \(v) = \(c).lastInsertedRowID")
                } else {
                    lines.append("\(recordBinding) item\(n) = Item(id: nil, name: \"\(tag).\(n)\")")
                    lines.append("try item\(n).insert(\(c))")
                    lines.append("let \(v) = item\(n).id")
                }
            case .inserted:
                lines.append("let \(v) = try Item(id: nil, name: \"\(tag).\(n)\").inserted(\(c)).id")
            case .insertAndFetch:
                lines.append("let \(v) = try Item(id: nil, name: \"\(tag).\(n)\").insertAndFetch(\(c)).id")
            case .save, .update:
                lines.append("guard \(recordBinding) item\(n) = try Item.fetchOne(\(c), key: 1) else { throw FuzzError.missing }")
                lines.append("item\(n).name += \"+\"")
                lines.append("try item\(n).\(step == .save ? "save" : "update")(\(c))")
                lines.append("let \(v) = item\(n).name")
            case .delete:
                lines.append("let \(v) = try Item.fetchOne(\(c), key: 3)?.delete(\(c))")
            case .execute:
                lines.append("try \(c).execute(sql: \"UPDATE t SET name = name || ? WHERE id = ?\", arguments: [\"!\", 2])")
                lines.append("let \(v) = \(c).changesCount")
            case .rename:
                lines.append("\(recordBinding) item\(n) = try Item.fetchOrDefault(id: 1, \(label): \(context.legacy(writes: false)))")
                lines.append("try item\(n).rename(to: \"\(tag).\(n)\", \(label): \(context.legacy(writes: true)))")
                lines.append("let \(v) = item\(n).name")
            case let .savepoint(rollsBack):
                lines += [
                    "var \(v) = \"none\"",
                    "try \(c).inSavepoint {",
                    "    try \(c).execute(sql: \"INSERT INTO t(name) VALUES (?)\", arguments: [\"\(tag).\(n)\"])",
                    "    let changed\(n) = \(c).changesCount",
                    "    \(v) = \"savepoint \\(changed\(n))\"",
                    "    return \(rollsBack ? ".rollback" : ".commit")",
                    "}",
                ]
            case .completion:
                let capture = context.explicitSelf ? "[events = self.events]" : "[events]"
                lines.append("\(context.parameter).addCompletion { \(capture) in events.record(\"\(tag).\(n)\") }")
            }
            if step.hasValue { values.append(v) }
        }
        return (lines, values)
    }

    /// A private helper that takes the legacy transaction.
    func helperSource(writes: Bool, in service: Service) -> [String] {
        let isolation = service.isActor ? "nonisolated " : ""
        let parameter = legacyParameter(writes: writes)
        let connection = legacyTransaction == .database ? "db" : "transaction.database"
        if writes {
            return [
                "\(isolation)private func appendName(_ name: String, \(parameter)) throws -> Int64 {",
                "    try \(connection).execute(sql: \"INSERT INTO t(name) VALUES (?)\", arguments: [name])",
                "    return \(connection).lastInsertedRowID",
                "}",
            ]
        }
        return [
            "\(isolation)private func countNamed(_ name: String, \(parameter)) throws -> Int {",
            "    try Item.filter(Column(\"name\") == name).fetchCount(\(connection))",
            "}",
        ]
    }

    // MARK: Entry

    /// The pool's adoption, once, at startup: by the first holder, whose
    /// `sqlite` the app keeps, or by the app itself.
    var adoption: [String] {
        guard let primary = holders.first else { return ["let sqlite = try SQLiteDB(adopting: pool)"] }
        return [construction(of: primary), "let sqlite = \(primary.property).sqlite"]
    }

    func construction(of holder: Holder) -> String {
        let adopted = holder == holders.first ? "" : ", sqlite: sqlite"
        switch holder {
        case .appDatabase: return "let appDatabase = \(adopted.isEmpty ? "try " : "")AppDatabase(pool\(adopted))"
        case .storage: return "let storage = \(adopted.isEmpty ? "try " : "")Storage(pool: pool\(adopted))"
        case .poolActor: return "let database = \(adopted.isEmpty ? "try " : "")PoolActor(pool: pool\(adopted))"
        }
    }

    /// The wiring of the holders and services, after `pool` and `sqlite`.
    var serviceWiring: [String] {
        var lines: [String] = []
        for holder in holders {
            if holder != holders.first { lines.append(construction(of: holder)) }
            lines.append("\(holder.typeName).shared = \(holder.property)")
        }
        if let holder = environmentHolder {
            lines.append("AppEnvironment.current.database = \(holder.property)")
        }
        if usesDependencies {
            let arguments = holders.map { "\($0.property): \($0.property)" } + ["label: \"deps\""]
            lines.append("Dependencies.shared = Dependencies(\(arguments.joined(separator: ", ")))")
        }
        for (index, service) in services.enumerated() {
            var arguments: [String] = []
            switch service.source {
            case .pool: arguments.append("dbPool: pool")
            case .writer: arguments.append("dbWriter: pool")
            case .reader: arguments.append("reader: pool")
            case let .holder(holder, defaulted): if !defaulted { arguments.append("\(holder.property): \(holder.property)") }
            default: break
            }
            for finderIndex in service.accesses.keys.sorted() {
                if case .injected(defaulted: false) = service.accesses[finderIndex]! {
                    let finder = finders[finderIndex].name
                    arguments.append("\(Self.property(finder)): \(finder)()")
                }
            }
            lines.append("let s\(index) = \(service.name)(\(arguments.joined(separator: ", ")))")
            for method in service.methods {
                let label = "\"\(service.name).\(method.name)\""
                let isAsync = method.block.isAsync || service.isActor || service.source.holder?.isAsync == true
                if case let .bridged(writes) = method.block {
                    lines.append("lines.append(record(\(label)) { try sqlite.\(writes ? "write" : "read") { tx in try s\(index).\(method.name)(tx: tx) } })")
                } else if case let .received(writes) = method.block {
                    let argument = legacyTransaction == .database ? "db: db" : "transaction: \(transactionType(writes: writes))(db)"
                    lines.append("lines.append(record(\(label)) { try pool.\(writes ? "write" : "read") { db in try s\(index).\(method.name)(\(argument)) } })")
                } else if isAsync {
                    lines.append("lines.append(await recordAsync(\(label)) { try await s\(index).\(method.name)() })")
                } else {
                    lines.append("lines.append(record(\(label)) { try s\(index).\(method.name)() })")
                }
            }
        }
        return lines
    }
}
#endif
