#if Txkit
import Foundation

/// The project's settings for `txkit shim`, `mock` and `inventory`, read from
/// `txkit.json` at the package root.
///
/// Every path is relative to the folder that holds `txkit.json`. A missing
/// key takes its default, which fits the worked example.
///
/// ```json
/// {
///   "sources": ["Sources/Messaging"],
///   "legacyTransactions": [
///     { "type": "LegacyTransaction", "transaction": "infer",
///       "bridge": "LegacyTransaction(try SQLiteDB.shimOnlyBridge($tx))",
///       "reverseBridge": { "write": "db.writeTransaction(bridging: $legacy.database)" } }
///   ],
///   "shimsFolder": "Sources/Messaging/Shortcuts/$consumer",
///   "mocksFolder": "Tests/MessagingTests/Mocks",
///   "mockImports": ["Messaging"],
///   "writeMembers": ["LegacyUserFinder.touch"],
///   "readMembers": [],
///   "shimImports": [],
///   "wrapperImports": ["TransactionKitSQLite"],
///   "excludedImports": ["GRDB"],
///   "accessLevel": "public"
/// }
/// ```
public struct GeneratorConfiguration: Codable, Equatable, Sendable {
    /// A legacy transaction type, and how a shim replaces it.
    package struct LegacyTransaction: Codable, Equatable, Sendable {
        /// Which TransactionKit transaction a shim takes in its place.
        package enum Replacement: String, Codable, Sendable {
            /// Always `DBReadTransaction`.
            case read
            /// Always `DBWriteTransaction`.
            case write
            /// Decided from the source, member by member: `writeMembers` and
            /// `readMembers`, then the parameter's type when the legacy layer
            /// has a `…Read…` and a `…Write…` transaction type, then what the
            /// member's body executes (SQL such as `UPDATE`, GRDB writes
            /// such as `execute(sql:)` or `save(`, also through the members
            /// it calls), then the blocks the consumer calls it in, and last
            /// a writing verb starting its name (`insert…`, `set…`). The
            /// shim's doc comment names the rule that decided.
            case infer
        }

        /// The legacy type's name, as written in parameter types.
        package var type: String
        /// Which TransactionKit transaction replaces it.
        package var transaction: Replacement
        /// The Swift expression that builds the legacy transaction in a
        /// wrapper, where `$tx` stands for the TransactionKit transaction.
        package var bridge: String
        /// The other way: how legacy code that holds a legacy transaction
        /// (`$legacy`) gets the TransactionKit transaction for the same
        /// database transaction, to call migrated code
        /// (`sqlite.writeTransaction(bridging: $legacy)` for GRDB's `Database`
        /// on an adopted pool). `--apply` names it in the step it asks for
        /// when a consumer still receives the legacy transaction.
        package var reverseBridge: ReverseBridge?
        /// Members of the legacy transaction that TransactionKit's offers
        /// under another name, with the same arguments (`"addCompletion":
        /// "addSyncCompletion"`): `txkit migrate` renames their calls.
        package var renamedMembers: [String: String]?

        /// The expressions of ``reverseBridge``, by transaction kind.
        package struct ReverseBridge: Codable, Equatable, Sendable {
            /// Builds a `DBReadTransaction` from `$legacy`.
            package var read: String?
            /// Builds a `DBWriteTransaction` from `$legacy`.
            package var write: String?

            package init(read: String? = nil, write: String? = nil) {
                self.read = read
                self.write = write
            }
        }

        package init(
            type: String, transaction: Replacement, bridge: String, reverseBridge: ReverseBridge? = nil,
            renamedMembers: [String: String]? = nil
        ) {
            self.type = type
            self.transaction = transaction
            self.bridge = bridge
            self.reverseBridge = reverseBridge
            self.renamedMembers = renamedMembers
        }

        /// The reverse bridge of `kind` applied to `legacy`, or the adoption
        /// API's form when none is configured.
        func reverseBridge(for kind: TransactionKind, legacy: String) -> String {
            let configured = kind == .write ? reverseBridge?.write : reverseBridge?.read
            let fallback = kind == .write ? Self.defaultReverseBridge.write : Self.defaultReverseBridge.read
            return (configured ?? fallback).replacingOccurrences(of: "$legacy", with: legacy)
        }

        /// The adoption API's reverse bridge, on `sqlite` (the `SQLiteDB`
        /// that adopted the app's pool): not `db`, which is the name of
        /// GRDB's connection in the app's own `pool.read { db in … }`.
        package static let defaultReverseBridge = (
            read: "sqlite.readTransaction(bridging: $legacy)", write: "sqlite.writeTransaction(bridging: $legacy)")
    }

    /// Files or folders (searched recursively for `.swift` files) that hold
    /// the consumers and the legacy types.
    public var sources: [String]
    /// The legacy transaction types.
    package var legacyTransactions: [LegacyTransaction]
    /// Where shims, wrappers and the `Shims`/`Wrappers` namespace go;
    /// `$consumer` stands for the consumer's name.
    package var shimsFolder: String
    /// Where mocks and the `Mocks` namespace go; `$consumer` stands for the
    /// consumer's name.
    package var mocksFolder: String
    /// Modules a mock imports besides TransactionKit and TransactionKitTesting
    /// (the module that declares the shims).
    package var mockImports: [String]
    /// Members (`IndexedType.member`) whose `infer` transaction is always
    /// `DBWriteTransaction`, whatever their name and body.
    package var writeMembers: [String]
    /// Members whose `infer` transaction is always `DBReadTransaction`.
    package var readMembers: [String]
    /// Modules shims and wrappers import besides those of the legacy
    /// type's files: the module that declares the legacy types, when the
    /// consumer lives in another one.
    package var shimImports: [String] = []
    /// Modules a wrapper imports besides TransactionKit: the one that
    /// declares the bridge (`TransactionKitSQLite` for `SQLiteDB`).
    package var wrapperImports: [String]
    /// Imports of the legacy files that shims and mocks leave out (the
    /// database library the legacy code uses).
    package var excludedImports: [String]
    /// The access level of shims and wrappers: `public`, `package` or
    /// `internal`. Mocks are always internal to their test target.
    package var accessLevel: AccessLevel

    /// The settings that fit the worked example.
    package static let defaults = GeneratorConfiguration(
        sources: ["Sources"],
        legacyTransactions: [
            LegacyTransaction(
                type: "LegacyTransaction", transaction: .infer,
                bridge: "LegacyTransaction(try SQLiteDB.shimOnlyBridge($tx))"),
        ],
        shimsFolder: "Sources/Shortcuts/" + GeneratedLayout.consumerPlaceholder,
        mocksFolder: "Tests/Mocks",
        mockImports: [],
        writeMembers: [],
        readMembers: [],
        wrapperImports: ["TransactionKitSQLite"],
        excludedImports: ["GRDB"],
        accessLevel: .public)

    package init(
        sources: [String], legacyTransactions: [LegacyTransaction], shimsFolder: String, mocksFolder: String,
        mockImports: [String], writeMembers: [String] = [], readMembers: [String] = [], wrapperImports: [String], excludedImports: [String], accessLevel: AccessLevel
    ) {
        self.wrapperImports = wrapperImports
        self.writeMembers = writeMembers
        self.readMembers = readMembers
        self.sources = sources
        self.legacyTransactions = legacyTransactions
        self.shimsFolder = shimsFolder
        self.mocksFolder = mocksFolder
        self.mockImports = mockImports
        self.excludedImports = excludedImports
        self.accessLevel = accessLevel
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = Self.defaults
        sources = try container.decodeIfPresent([String].self, forKey: .sources) ?? defaults.sources
        legacyTransactions = try container.decodeIfPresent([LegacyTransaction].self, forKey: .legacyTransactions)
            ?? defaults.legacyTransactions
        shimsFolder = try container.decodeIfPresent(String.self, forKey: .shimsFolder) ?? defaults.shimsFolder
        mocksFolder = try container.decodeIfPresent(String.self, forKey: .mocksFolder) ?? defaults.mocksFolder
        mockImports = try container.decodeIfPresent([String].self, forKey: .mockImports) ?? defaults.mockImports
        writeMembers = try container.decodeIfPresent([String].self, forKey: .writeMembers) ?? []
        readMembers = try container.decodeIfPresent([String].self, forKey: .readMembers) ?? []
        shimImports = try container.decodeIfPresent([String].self, forKey: .shimImports) ?? []
        wrapperImports = try container.decodeIfPresent([String].self, forKey: .wrapperImports)
            ?? defaults.wrapperImports
        excludedImports = try container.decodeIfPresent([String].self, forKey: .excludedImports)
            ?? defaults.excludedImports
        let accessLevel = try container.decodeIfPresent(String.self, forKey: .accessLevel)
        // The path is filled in by `decode(_:path:)`.
        if let accessLevel {
            guard let level = AccessLevel(rawValue: accessLevel), AccessLevel.configurable.contains(level) else {
                throw GeneratorError.invalidSetting(
                    path: "txkit.json", key: "accessLevel", problem: "\"\(accessLevel)\" is not an access level",
                    fix: "Write \"public\", \"package\" or \"internal\"")
            }
            self.accessLevel = level
        } else {
            self.accessLevel = defaults.accessLevel
        }
        // A module name; in mockImports also `@testable App`: mocks extend
        // the consumer (`extension TaskManager { enum Mocks … }`) from the
        // test target, and an app's managers are usually internal.
        for (key, modules) in [("mockImports", mockImports), ("shimImports", shimImports),
                               ("wrapperImports", wrapperImports), ("excludedImports", excludedImports)] {
            for (index, module) in modules.enumerated() {
                let testable = key == "mockImports" && module.hasPrefix("@testable ")
                let name = testable ? String(module.dropFirst("@testable ".count)) : module
                guard !Self.isModuleName(name) else { continue }
                let bare = module.split(separator: " ").last.map(String.init) ?? module
                throw GeneratorError.invalidSetting(
                    path: "txkit.json", key: "\(key)[\(index)]", problem: "\"\(module)\" is not a module name",
                    fix: module.hasPrefix("@testable")
                        ? "Write \"\(bare)\": only mockImports takes \"@testable \(bare)\" (shims and wrappers are in the module itself)"
                        : "Write the module's name alone, such as \"\(bare)\"" + (key == "mockImports" ? ", or \"@testable \(bare)\"" : ""))
            }
        }
        for (index, legacy) in legacyTransactions.enumerated() where !legacy.bridge.contains("$tx") {
            throw GeneratorError.invalidSetting(
                path: "txkit.json", key: "legacyTransactions[\(index)].bridge",
                problem: "\(legacy.bridge) does not contain $tx",
                fix: "Write the expression that builds a \(legacy.type) from $tx, the TransactionKit transaction, "
                    + "such as \"\(legacy.type)(try SQLiteDB.shimOnlyBridge($tx))\"")
        }
        for (index, legacy) in legacyTransactions.enumerated() {
            for (kind, expression) in [("read", legacy.reverseBridge?.read), ("write", legacy.reverseBridge?.write)]
            where expression.map({ !$0.contains("$legacy") }) ?? false {
                throw GeneratorError.invalidSetting(
                    path: "txkit.json", key: "legacyTransactions[\(index)].reverseBridge.\(kind)",
                    problem: "\(expression ?? "") does not contain $legacy",
                    fix: "Write the expression that builds the TransactionKit transaction from $legacy, the legacy one")
            }
        }
    }

    /// The settings in `folder/txkit.json`, or the defaults when the file
    /// does not exist.
    public static func load(from folder: String) throws -> GeneratorConfiguration {
        let path = (folder as NSString).appendingPathComponent("txkit.json")
        guard FileManager.default.fileExists(atPath: path) else { return .defaults }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw GeneratorError.unreadablePath(path, reason: "\(error.localizedDescription)")
        }
        return try decode(data, path: path)
    }

    /// Whether `text` is a module's name (what `import` takes).
    static func isModuleName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else {
            return false
        }
        return text.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }

    /// The legacy transaction named `type`, if it is one.
    func legacyTransaction(named type: String) -> LegacyTransaction? {
        legacyTransactions.first { $0.type == type }
    }
}
#endif
