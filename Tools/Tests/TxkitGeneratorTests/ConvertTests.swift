import Foundation
import Testing
import TxkitGenerator

/// `txkit convert`: golden against Fixtures/Convert (Before is a small shop
/// with a legacy finder, a consumer on its shim and a legacy caller; After
/// is what `convert --legacy PriceFinder --apply` makes of it), and the
/// places it refuses to guess about.
@Suite("convert")
struct ConvertTests {
    static let fixture = GeneratedFilesAreCurrentTests.tools + "/Fixtures/Convert"

    /// Every file under `folder`, relative to it, txkit.json aside.
    static func files(under folder: String) -> [String] {
        let names = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted()
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// A copy of Before, converted with `--apply`; returns the folder.
    static func convertACopy() throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("txkit-convert-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: fixture + "/Before", toPath: folder)
        let configuration = try GeneratorConfiguration.load(from: folder)
        let conversion = try LegacyConversion(root: folder, configuration: configuration, legacy: "PriceFinder")
        #expect(conversion.blockers.isEmpty, "\(conversion.blockers)")
        try FileChangeSet(
            root: folder, files: conversion.files, edits: conversion.edits, deletions: conversion.deletions
        ).write()
        return folder
    }

    @Test func theFixtureIsWhatConvertMakesOfTheShop() throws {
        let folder = try Self.convertACopy()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let expected = Self.files(under: Self.fixture + "/After")
        #expect(Self.files(under: folder) == expected)
        for path in expected {
            #expect(try Self.read(folder + "/" + path) == Self.read(Self.fixture + "/After/" + path), "\(path)")
        }
    }

    @Test func thePlanNamesEveryMemberAndWritesNothing() throws {
        let root = Self.fixture + "/Before"
        let before = Self.files(under: root)
        let conversion = try LegacyConversion(
            root: root, configuration: try GeneratorConfiguration.load(from: root), legacy: "PriceFinder")
        #expect(Self.files(under: root) == before)
        #expect(conversion.protocolName == "PriceFinding")
        #expect(conversion.retiredPairs == ["Checkout → PriceFinder"])
        let members = Dictionary(uniqueKeysWithValues: conversion.members.map { ($0.name, $0.transaction) })
        #expect(members["price(of:_:)"] == "DBReadTransaction")
        #expect(members["setPrice(_:of:_:)"] == "DBWriteTransaction")
        #expect(members["total(of:_:)"] == "DBReadTransaction")
        #expect(conversion.deletions.contains("Sources/Shop/Shortcuts/Checkout/Checkout_PriceFinderShim.swift"))
        #expect(conversion.diff.contains("+    func setPrice(_ cents: Int, of item: String, _ tx: DBWriteTransaction) throws {"))
        #expect(conversion.changedLines > 0)
    }

    // MARK: Refusals

    static let finder = """
        import GRDB

        final class Notes: Sendable {
            init() {}
            func note(id: Int, transaction: LegacyTransaction) throws -> String? { nil }
            func save(_ text: String, transaction: LegacyTransaction) throws {}
        }
        """

    static func conversion(
        _ files: [(String, String)], legacy: String = "Notes", reverseBridge: GeneratorConfiguration.LegacyTransaction.ReverseBridge? = nil
    ) throws -> LegacyConversion {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [
            .init(
                type: "LegacyTransaction", transaction: .infer,
                bridge: "LegacyTransaction(try SQLiteDB.shimOnlyBridge($tx))", reverseBridge: reverseBridge),
        ]
        return try LegacyConversion(
            configuration: configuration, sources: SourceSet(sources: files.map { (path: $0.0, text: $0.1) }),
            legacy: legacy)
    }

    static let receiver = """
        final class Report {
            let notes = Notes()
            func render(transaction: LegacyTransaction) throws -> String {
                try notes.note(id: 1, transaction: transaction) ?? ""
            }
        }
        """

    @Test func aCallerThatReceivesTheLegacyTransactionIsListedForAPerson() throws {
        let conversion = try Self.conversion([("Notes.swift", Self.finder), ("Report.swift", Self.receiver)])
        let blocker = try #require(conversion.blockers.first)
        #expect(conversion.blockers.count == 1)
        #expect(blocker.location == "Report.swift:4")
        #expect(blocker.reason.contains("no reverseBridge"))
        #expect(blocker.reason.contains("is a parameter of Report.render"))
        let refusal = ConversionRefused(legacy: "Notes", blockers: conversion.blockers)
        #expect(refusal.description.contains("Report.swift:4: "))
        #expect(refusal.description.contains("nothing was written"))
    }

    @Test func aConfiguredReverseBridgeIsPassedInstead() throws {
        let conversion = try Self.conversion(
            [("Notes.swift", Self.finder), ("Report.swift", Self.receiver)],
            reverseBridge: .init(read: "AppDatabase.db.readTransaction(bridging: $legacy.database)"))
        #expect(conversion.blockers.isEmpty)
        let report = try #require(conversion.edits.first { $0.path == "Report.swift" })
        #expect(report.edited.contains(
            "try notes.note(id: 1, AppDatabase.db.readTransaction(bridging: transaction.database)) ?? \"\""))
    }

    @Test func aDefaultedOrOptionalLegacyTransactionIsRefusedAtTheMember() throws {
        let finder = """
            final class Notes {
                func note(id: Int, transaction: LegacyTransaction? = nil) -> String? { nil }
                func save(_ text: String, transaction: LegacyTransaction) throws {}
            }
            """
        let conversion = try Self.conversion([("Notes.swift", finder)])
        #expect(conversion.blockers.map(\.location) == ["Notes.swift:2"])
        #expect(conversion.blockers[0].reason.contains("default value"))
        // The other member is still planned, for the diff.
        #expect(conversion.members.map(\.name) == ["save(_:_:)"])
    }

    @Test func rethrowsAndOverridesAreRefusedAtTheMember() throws {
        let finder = """
            class Base {
                func count(transaction: LegacyTransaction) throws -> Int { 0 }
            }
            final class Notes: Base {
                func each(_ body: (String) throws -> Void, transaction: LegacyTransaction) rethrows {}
                override func count(transaction: LegacyTransaction) throws -> Int { 1 }
            }
            """
        let conversion = try Self.conversion([("Notes.swift", finder)])
        #expect(conversion.blockers.map(\.location) == ["Notes.swift:5", "Notes.swift:6"])
        #expect(conversion.blockers[0].reason.contains("rethrows"))
        #expect(conversion.blockers[1].reason.contains("overrides"))
    }

    @Test func aCallInAClosureThatDoesNotThrowIsListed() throws {
        let caller = """
            import TransactionKit
            import TransactionKitSQLite

            final class Titles {
                let db: any DB
                init(db: any DB) { self.db = db }
                func titles(_ ids: [Int]) throws -> [String] {
                    try db.read { tx in
                        let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                        return ids.compactMap { id in Lister.title(id, transaction: legacy) }
                    }
                }
            }
            """
        let lister = """
            enum Lister {
                static func title(_ id: Int, transaction: LegacyTransaction) -> String? { nil }
            }
            """
        let conversion = try Self.conversion([("Lister.swift", lister), ("Titles.swift", caller)], legacy: "Lister")
        #expect(conversion.blockers.map(\.location) == ["Titles.swift:10"])
        #expect(conversion.blockers[0].reason.contains("closure that does not throw"))
    }

    @Test func anExistingProtocolNameOrAProtocolIsRefused() throws {
        let taken = "protocol NotesFinding {}"
        #expect(throws: GeneratorError.self) {
            try Self.conversion([("Notes.swift", Self.finder), ("Taken.swift", taken)])
        }
        let notAFinder = "protocol Lookup { func find(transaction: LegacyTransaction) }"
        #expect(throws: GeneratorError.self) {
            try Self.conversion([("Lookup.swift", notAFinder)], legacy: "Lookup")
        }
    }

    @Test func callsBetweenTheFindersMembersPassTheTransactionOn() throws {
        let conversion = try Self.conversion([("Notes.swift", """
            import GRDB

            final class Notes: Sendable {
                func count(transaction: LegacyTransaction) throws -> Int {
                    try Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM note") ?? 0
                }
                func isEmpty(transaction: LegacyTransaction) throws -> Bool {
                    try count(transaction: transaction) == 0
                }
            }
            """)])
        #expect(conversion.blockers.isEmpty)
        let edited = try #require(conversion.edits.first).edited
        #expect(edited.contains("""
                func count(_ tx: DBReadTransaction) throws -> Int {
                    let transaction = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                    return try Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM note") ?? 0
            """))
        // isEmpty no longer needs the legacy transaction: no unused local.
        #expect(edited.contains("""
                func isEmpty(_ tx: DBReadTransaction) throws -> Bool {
                    try count(tx) == 0
                }
            """))
        #expect(edited.contains("import TransactionKit\nimport TransactionKitSQLite"))
    }
}
