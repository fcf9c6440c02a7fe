import Foundation

/// A synthetic legacy code base for the generator benchmark: `typeCount`
/// legacy finder classes of `membersPerType` members each (declaration
/// and an extension in a second file), and as many consumers, each using
/// its own finder through a stored property and its neighbour's static
/// members, bridging transactions as legacy code does.
struct GeneratorCorpus {
    let typeCount: Int
    let membersPerType: Int
    /// The number of members each consumer calls on its own finder.
    let usesPerConsumer = 6

    /// The configuration the corpus is written for.
    static let configuration = """
        {
          "sources": ["Sources"],
          "legacyTransactions": [
            { "type": "LegacyTransaction", "transaction": "infer",
              "bridge": "LegacyTransaction(try SQLiteDB.shimOnlyBridge($tx))" }
          ],
          "shimsFolder": "Generated/Shortcuts/$consumer",
          "mocksFolder": "Generated/Mocks",
          "mockImports": ["Corpus"],
          "accessLevel": "internal"
        }
        """

    /// Writes the corpus under `folder`; returns the number of lines.
    func write(to folder: String) throws -> Int {
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder + "/Sources/Legacy", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: folder + "/Sources/Managers", withIntermediateDirectories: true)
        try Self.configuration.write(toFile: folder + "/txkit.json", atomically: true, encoding: .utf8)
        var lines = 0
        let transaction = "struct LegacyTransaction {\n    let database: Int\n    init(_ database: Int) { self.database = database }\n}\n"
        try transaction.write(toFile: folder + "/Sources/Legacy/LegacyTransaction.swift", atomically: true, encoding: .utf8)
        for index in 0..<typeCount {
            let (declaration, extensionText) = finder(index)
            let manager = consumer(index)
            try declaration.write(toFile: folder + "/Sources/Legacy/\(finderName(index)).swift", atomically: true, encoding: .utf8)
            try extensionText.write(
                toFile: folder + "/Sources/Legacy/\(finderName(index))+More.swift", atomically: true, encoding: .utf8)
            try manager.write(toFile: folder + "/Sources/Managers/Manager\(index).swift", atomically: true, encoding: .utf8)
            lines += [declaration, extensionText, manager].map { $0.count { $0 == "\n" } }.reduce(0, +)
        }
        return lines
    }

    func finderName(_ index: Int) -> String { "LegacyFinder\(index)" }

    /// The members: instance finders and writers, statics, properties and
    /// defaulted parameters; the last fifth lives in an extension file.
    private func finder(_ index: Int) -> (String, String) {
        var members: [String] = []
        for m in 0..<membersPerType {
            switch m % 5 {
            case 0:
                members.append("""
                        /// Finds a record by id.
                        func find\(m)(id: Int64, transaction: LegacyTransaction) throws -> String? {
                            id == 0 ? nil : "record \\(id)"
                        }
                    """)
            case 1:
                members.append("""
                        /// Inserts a record.
                        @discardableResult
                        func insert\(m)(name: String, flags: [String] = [], transaction: LegacyTransaction) throws -> Int64 {
                            Int64(name.count + flags.count)
                        }
                    """)
            case 2:
                members.append("""
                        /// Counts records.
                        static func count\(m)(where filter: String? = nil, transaction: LegacyTransaction) -> Int {
                            filter?.count ?? 0
                        }
                    """)
            case 3:
                members.append("""
                        /// A setting.
                        var limit\(m): Int {
                            get { 10 }
                            set { _ = newValue }
                        }
                    """)
            default:
                members.append("""
                        /// Lists names, optionally decoded.
                        func names\(m)<T: Decodable>(as type: T.Type, limit: Int = 10, transaction: LegacyTransaction) throws -> [T] where T: Sendable {
                            []
                        }
                    """)
            }
        }
        let split = membersPerType * 4 / 5
        let declaration = """
            import Foundation

            /// Legacy finder number \(index).
            final class \(finderName(index)): @unchecked Sendable {
                init() {}

            \(members[..<split].joined(separator: "\n\n"))
            }

            """
        let extensionText = """
            import Foundation

            extension \(finderName(index)) {
            \(members[split...].joined(separator: "\n\n"))
            }

            """
        return (declaration, extensionText)
    }

    /// A manager that uses its finder's members and its neighbour's
    /// statics.
    private func consumer(_ index: Int) -> String {
        let own = finderName(index)
        let neighbour = finderName((index + 1) % typeCount)
        var calls: [String] = []
        for m in 0..<min(usesPerConsumer, membersPerType) {
            switch m % 5 {
            case 0: calls.append("_ = try finder.find\(m)(id: id, transaction: legacy)")
            case 1: calls.append("try finder.insert\(m)(name: \"n\", transaction: legacy)")
            case 2: calls.append("_ = \(own).count\(m)(transaction: legacy)")
            case 3: calls.append("finder.limit\(m) = 3")
            default: calls.append("let _: [String] = try finder.names\(m)(as: String.self, transaction: legacy)")
            }
        }
        return """
            import Foundation
            import TransactionKit
            import TransactionKitSQLite

            /// Manager number \(index), legacy style.
            final class Manager\(index): Sendable {
                let db: any DB
                let finder: \(own)

                init(db: any DB, finder: \(own) = \(own)()) {
                    self.db = db
                    self.finder = finder
                }

                func run(id: Int64) throws {
                    try db.write { tx in
                        let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                        \(calls.joined(separator: "\n            "))
                        _ = \(neighbour).count2(where: "x", transaction: legacy)
                    }
                }

                func total() throws -> Int {
                    try db.read { tx in
                        \(neighbour).count2(transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx)))
                    }
                }
            }

            """
    }
}
