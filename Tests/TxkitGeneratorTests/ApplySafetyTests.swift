#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// `txkit shim --apply` is safe: edits never overlap, every file is parsed
/// again before anything is written, and the run is all or nothing.
@Suite("shim --apply is safe")
struct ApplySafetyTests {
    // MARK: Overlapping edits

    static func edit(_ start: Int, _ end: Int, _ text: String = "x") -> TextEdit {
        TextEdit(start: start, end: end, replacement: text)
    }

    @Test func editsThatShareBytesOverlap() {
        #expect(Self.edit(0, 5).overlaps(Self.edit(4, 8)))
        #expect(Self.edit(4, 8).overlaps(Self.edit(0, 5)))
        #expect(Self.edit(2, 3).overlaps(Self.edit(0, 9)))
        #expect(Self.edit(0, 9).overlaps(Self.edit(0, 9)))
        // An insertion strictly inside a replaced range.
        #expect(Self.edit(3, 3).overlaps(Self.edit(0, 9)))
        #expect(Self.edit(0, 9).overlaps(Self.edit(3, 3)))
    }

    @Test func editsThatOnlyMeetDoNotOverlap() {
        #expect(!Self.edit(0, 5).overlaps(Self.edit(5, 8)))
        #expect(!Self.edit(5, 8).overlaps(Self.edit(0, 5)))
        // Insertions at a replaced range's ends, or at one place.
        #expect(!Self.edit(0, 0).overlaps(Self.edit(0, 9)))
        #expect(!Self.edit(9, 9).overlaps(Self.edit(0, 9)))
        #expect(!Self.edit(4, 4).overlaps(Self.edit(4, 4)))
        let pairs = TextEdit.overlappingPairs([Self.edit(0, 5), Self.edit(5, 8), Self.edit(8, 8), Self.edit(20, 22)])
        #expect(pairs.isEmpty)
        #expect(TextEdit.overlappingPairs([Self.edit(0, 5), Self.edit(9, 12), Self.edit(10, 10)]).count == 1)
    }

    @Test func anInsertionWhereAReplacementStartsGoesBeforeIt() {
        // The edits of `Finder.label(…)` → `try self.finder.label(…)`,
        // recorded replacement first: once `self.finderder.label`.
        let text = "let x = Finder.label(a)"
        let edits = [Self.edit(8, 14, "self.finder"), Self.edit(8, 8, "try ")]
        #expect(TextEdit.apply(edits, to: text) == "let x = try self.finder.label(a)")
        #expect(TextEdit.apply(edits.reversed(), to: text) == "let x = try self.finder.label(a)")
    }

    @Test func overlappingEditsAreAnInternalErrorWithTheirPlaces() throws {
        let file = try SourceFile(path: "Consumer.swift", text: "let a = 1\nlet b = Finder.find(x)\n")
        let error = #expect(throws: GeneratorError.self) {
            try EditBuffer.requireNoOverlap([Self.edit(18, 24, "self.f"), Self.edit(20, 30, "y")], in: file)
        }
        let message = try #require(error).description
        #expect(message.hasPrefix("internal error: --apply planned overlapping edits in Consumer.swift"))
        #expect(message.contains("Consumer.swift:2:9-Consumer.swift:2:15 and Consumer.swift:2:11-Consumer.swift:2:21"))
        #expect(message.contains("nothing was written"))
    }

    /// A static call the consumer does not `try` (the legacy member does
    /// not throw), routed through the shim: `try` and `self.finder` both
    /// start where the call does.
    @Test func aStaticCallWithAnInlineBridgeAndATrailingClosureIsRewrittenWhole() throws {
        let generator = try Generator(
            configuration: .defaults,
            sources: SourceSet(sources: [
                ("Legacy.swift", """
                    struct LegacyTransaction {}
                    enum OrderFinder {
                        static func enumerateOrders(transaction: LegacyTransaction, _ body: (Int) -> Void) {}
                    }
                    """),
                ("Consumer.swift", """
                    final class C {
                        init() {}
                        func f(_ tx: DBReadTransaction) throws {
                            OrderFinder.enumerateOrders(transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))) { id in
                                print(id)
                            }
                        }
                    }
                    """),
            ]))
        let edits = try generator.shim(consumer: "C", legacy: "OrderFinder").edits.get()
        let edited = try #require(edits.first).edited
        #expect(edited.contains("        try self.orderFinder.enumerateOrders(tx) { id in\n"))
        #expect(!edited.contains("OrderFinder.enumerateOrders"))
        #expect(!edited.contains("Findernder"))
    }

    // MARK: Bridges and transactions

    static let twoTransactions: GeneratorConfiguration = {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [
            .init(type: "ReadTx", transaction: .read, bridge: "ReadTx(try SQLiteDB.shimOnlyBridge($tx))"),
            .init(type: "WriteTx", transaction: .write, bridge: "WriteTx(try SQLiteDB.shimOnlyBridge($tx))"),
        ]
        return configuration
    }()

    static let twoTransactionsLegacy = """
        class ReadTx {}
        final class WriteTx: ReadTx {}
        final class Finder: Sendable {
            init() {}
            func find(id: Int64, transaction: ReadTx) -> String? { nil }
            func save(id: Int64, transaction: WriteTx) {}
        }
        """

    @Test func aTransactionBuiltWithTheOtherBridgeIsRecognised() throws {
        let generator = try Generator(
            configuration: Self.twoTransactions,
            sources: SourceSet(sources: [
                ("Legacy.swift", Self.twoTransactionsLegacy),
                ("Consumer.swift", """
                    final class C {
                        let finder = Finder()
                        init() {}
                        func f(_ tx: DBWriteTransaction) throws -> String? {
                            let write = WriteTx(try SQLiteDB.shimOnlyBridge(tx))
                            finder.save(id: 1, transaction: write)
                            return finder.find(id: 1, transaction: write)
                        }
                        func g(_ tx: DBWriteTransaction) throws -> String? {
                            finder.find(id: 2, transaction: WriteTx(try SQLiteDB.shimOnlyBridge(tx)))
                        }
                    }
                    """),
            ]))
        let edited = try #require(try generator.shim(consumer: "C", legacy: "Finder").edits.get().first).edited
        #expect(edited.contains("try finder.save(id: 1, tx)"))
        #expect(edited.contains("return try finder.find(id: 1, tx)"))
        #expect(edited.contains("try finder.find(id: 2, tx)"))
        #expect(!edited.contains("WriteTx"))
    }

    @Test func aWriteCalledInAReadTransactionIsRefusedWithItsPlace() throws {
        let generator = try Generator(
            configuration: .defaults,
            sources: SourceSet(sources: [
                ("Legacy.swift", """
                    struct LegacyTransaction { let database: Database }
                    final class Finder: Sendable {
                        init() {}
                        func hide(id: Int64, transaction: LegacyTransaction) throws {
                            try transaction.database.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [id])
                        }
                    }
                    """),
                ("Consumer.swift", """
                    final class C {
                        let finder = Finder()
                        init() {}
                        func f(_ tx: DBReadTransaction) throws {
                            try finder.hide(id: 1, transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx)))
                        }
                    }
                    """),
            ]))
        let error = #expect(throws: GeneratorError.self) { try generator.shim(consumer: "C", legacy: "Finder").edits.get() }
        let message = try #require(error).description
        #expect(message.hasPrefix("--apply cannot route C through its shim of Finder; nothing was written:\n  Consumer.swift:5: "))
        #expect(message.contains("runs in a read transaction, but Finder.hide(id:transaction:) writes"))
        #expect(message.contains("its body executes DELETE, rule: body"))
    }

    @Test func aSingletonIsRoutedThroughAShimPropertyThatWrapsIt() throws {
        let generator = try Generator(
            configuration: .defaults,
            sources: SourceSet(sources: [
                ("Legacy.swift", """
                    struct LegacyTransaction {}
                    final class CustomerStore: Sendable {
                        static func shared() -> CustomerStore { CustomerStore() }
                        func customer(id: Int64, transaction: LegacyTransaction) -> String? { nil }
                    }
                    """),
                ("Consumer.swift", """
                    final class C {
                        init() {}
                        func f(_ tx: DBReadTransaction) throws -> String? {
                            let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                            return CustomerStore.shared().customer(id: 1, transaction: legacy)
                        }
                    }
                    """),
            ]))
        let edited = try #require(try generator.shim(consumer: "C", legacy: "CustomerStore").edits.get().first).edited
        // The shim property's production value is the singleton itself.
        #expect(edited.contains("init(customerStore: C.Shims.CustomerStore = C.Wrappers.CustomerStore(CustomerStore.shared())) {"))
        #expect(edited.contains("return try self.customerStore.customer(id: 1, tx)"))
        #expect(!edited.contains("CustomerStore.shared().customer"))
    }

    @Test func twoDifferentSingletonsAreRefused() throws {
        let generator = try Generator(
            configuration: .defaults,
            sources: SourceSet(sources: [
                ("Legacy.swift", """
                    struct LegacyTransaction {}
                    final class CustomerStore: Sendable {
                        static let shared = CustomerStore(name: "main")
                        static let backup = CustomerStore(name: "backup")
                        let name: String
                        init(name: String) { self.name = name }
                        func customer(id: Int64, transaction: LegacyTransaction) -> String? { nil }
                    }
                    """),
                ("Consumer.swift", """
                    final class C {
                        init() {}
                        func f(_ tx: DBReadTransaction) throws -> String? {
                            let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                            return CustomerStore.shared.customer(id: 1, transaction: legacy)
                                ?? CustomerStore.backup.customer(id: 1, transaction: legacy)
                        }
                    }
                    """),
            ]))
        let error = #expect(throws: GeneratorError.self) { try generator.shim(consumer: "C", legacy: "CustomerStore").edits.get() }
        #expect(try #require(error).description.contains("through several expressions"))
    }

    /// The shop fixture's ReportManager: `CustomerStore()` in one method,
    /// `CustomerStore.shared()` in another. A type that holds no state
    /// (no stored instance property, no superclass) has interchangeable
    /// instances, so one shim property wrapping `CustomerStore()` stands
    /// for both; with a stored property the two may differ: refused.
    @Test func aStatelessTypeReachedThroughSeveralExpressionsGetsOneShimProperty() throws {
        let sources = { (state: String) in try SourceSet(sources: [
            ("Legacy.swift", """
                struct LegacyTransaction {}
                final class CustomerStore: Sendable {
                    \(state)
                    init() {}
                    static func shared() -> CustomerStore { CustomerStore() }
                    func customer(id: Int64, transaction: LegacyTransaction) -> String? { nil }
                }
                """),
            ("Consumer.swift", """
                final class ReportManager {
                    init() {}
                    func first(_ tx: DBReadTransaction) throws -> String? {
                        let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                        return CustomerStore().customer(id: 1, transaction: legacy)
                    }
                    func second(_ tx: DBReadTransaction) throws -> String? {
                        let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                        return CustomerStore.shared().customer(id: 2, transaction: legacy)
                    }
                }
                """),
        ]) }
        let stateless = Generator(configuration: .defaults, sources: try sources(""))
        let edited = try #require(try stateless.shim(consumer: "ReportManager", legacy: "CustomerStore").edits.get().first).edited
        #expect(edited.contains(
            "init(customerStore: ReportManager.Shims.CustomerStore = ReportManager.Wrappers.CustomerStore(CustomerStore()))"))
        #expect(edited.contains("return try self.customerStore.customer(id: 1, tx)"))
        #expect(edited.contains("return try self.customerStore.customer(id: 2, tx)"))

        let stateful = Generator(configuration: .defaults, sources: try sources("let created = 0"))
        let error = #expect(throws: GeneratorError.self) {
            try stateful.shim(consumer: "ReportManager", legacy: "CustomerStore").edits.get()
        }
        #expect(try #require(error).description.contains("through several expressions"))
    }

    /// A public initializer's default argument may name only public
    /// declarations: with package wrappers, --apply refuses (it wrote a
    /// default that did not build); with public ones, it writes it.
    @Test func aPublicInitializerGetsAWrapperDefaultOnlyWhenTheWrapperIsPublic() throws {
        let sources = try SourceSet(sources: [
            ("Legacy.swift", """
                struct LegacyTransaction {}
                public final class CustomerStore: Sendable {
                    public init() {}
                    func customer(id: Int64, transaction: LegacyTransaction) -> String? { nil }
                }
                """),
            ("Consumer.swift", """
                public final class C {
                    public init() {}
                    func f(_ tx: DBReadTransaction) throws -> String? {
                        let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                        return CustomerStore().customer(id: 1, transaction: legacy)
                    }
                }
                """),
        ])
        var packageWrappers = GeneratorConfiguration.defaults
        packageWrappers.accessLevel = .package
        let refusing = Generator(configuration: packageWrappers, sources: sources)
        let error = #expect(throws: GeneratorError.self) { try refusing.shim(consumer: "C", legacy: "CustomerStore").edits.get() }
        let message = try #require(error).description
        #expect(message.contains("\n  Consumer.swift:2: this initializer of C is public"))
        #expect(message.contains("a public initializer's parameter and default value cannot name them"))
        #expect(message.contains("\"accessLevel\": \"public\""))

        let writing = Generator(configuration: .defaults, sources: sources)
        let edited = try #require(try writing.shim(consumer: "C", legacy: "CustomerStore").edits.get().first).edited
        #expect(edited.contains("customerStore: C.Shims.CustomerStore = C.Wrappers.CustomerStore(CustomerStore())"))
    }

    /// A public initializer that builds the finder itself
    /// (`self.store = CustomerStore(name: name)`) gets no optional shim
    /// parameter when the shim is not public (a new user's app: `public
    /// init(…, activity: TaskManager.Shims.ActivityLog? = nil)` did not
    /// build); a package one does.
    @Test func aPublicInitializerGetsNoParameterOfAPackageShim() throws {
        let sources = { (access: String) in try SourceSet(sources: [
            ("Legacy.swift", """
                struct LegacyTransaction {}
                public final class CustomerStore: Sendable {
                    let name: String
                    public init(name: String) { self.name = name }
                    func customer(id: Int64, transaction: LegacyTransaction) -> String? { nil }
                }
                """),
            ("Consumer.swift", """
                public final class C {
                    let store: CustomerStore
                    \(access) init(name: String) {
                        self.store = CustomerStore(name: name)
                    }
                    func f(_ tx: DBReadTransaction) throws -> String? {
                        let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                        return store.customer(id: 1, transaction: legacy)
                    }
                }
                """),
        ]) }
        var packageWrappers = GeneratorConfiguration.defaults
        packageWrappers.accessLevel = .package
        let exposed = try #require(try Generator(configuration: packageWrappers, sources: sources("public"))
            .shim(consumer: "C", legacy: "CustomerStore").edits.get().first).edited
        #expect(exposed.contains("public init(name: String) {"))
        #expect(exposed.contains("self.store = C.Wrappers.CustomerStore(CustomerStore(name: name))"))
        let injectable = try #require(try Generator(configuration: packageWrappers, sources: sources("package"))
            .shim(consumer: "C", legacy: "CustomerStore").edits.get().first).edited
        #expect(injectable.contains("package init(name: String, store: C.Shims.CustomerStore? = nil) {"))
        #expect(injectable.contains("self.store = store ?? C.Wrappers.CustomerStore(CustomerStore(name: name))"))
    }

    // MARK: Parsed again, all or nothing

    static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-safety-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The folder's files and their bytes.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        for case let path as String in enumerator {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory)
            files[path] = isDirectory.boolValue ? Data() : FileManager.default.contents(atPath: folder + "/" + path)
        }
        return files
    }

    static let marker = "// Generated by `txkit shim --consumer C --legacy D`. Do not edit: run the command again.\n"

    @Test func aResultThatDoesNotParseIsNamedAndNothingIsWritten() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let consumer = folder + "/Consumer.swift"
        try Self.write("final class C {}\n", to: consumer)
        let before = try Self.snapshot(folder)
        let error = #expect(throws: GeneratorError.self) {
            try FileChangeSet(
                root: folder,
                files: [GeneratedFile(path: "Shims/C_DShim.swift", contents: Self.marker + "protocol P {\n    func f(\n}\n")],
                edits: [ConsumerEdit(path: consumer, original: "final class C {}\n", edited: "final class C { }\n")])
        }
        let message = try #require(error).description
        #expect(message.hasPrefix("internal error: what txkit would write to Shims/C_DShim.swift does not parse"))
        #expect(message.contains("Shims/C_DShim.swift:"))
        #expect(try Self.snapshot(folder) == before)

        let editError = #expect(throws: GeneratorError.self) {
            try FileChangeSet(
                root: folder, files: [],
                edits: [ConsumerEdit(path: consumer, original: "final class C {}\n", edited: "final class C {\n")])
        }
        #expect(try #require(editError).description.contains("what txkit would write to \(consumer) does not parse"))
    }

    @Test func aFileThatChangedSinceItWasReadIsRefused() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let consumer = folder + "/Consumer.swift"
        try Self.write("final class C { }\n", to: consumer)
        #expect(throws: GeneratorError.unwritablePath(
            consumer, reason: "it changed since txkit read it; run the command again")) {
            try FileChangeSet(
                root: folder, files: [],
                edits: [ConsumerEdit(path: consumer, original: "final class C {}\n", edited: "final class D {}\n")])
        }
    }

    @Test func aWriteThatFailsMidwayRestoresEveryFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let consumer = folder + "/Consumer.swift"
        let other = folder + "/Other.swift"
        try Self.write("final class C {}\n", to: consumer)
        try Self.write(Self.marker + "struct Old {}\n", to: other)
        let before = try Self.snapshot(folder)

        var changes = try FileChangeSet(
            root: folder,
            files: [
                GeneratedFile(path: "New/Deep/C_DShim.swift", contents: Self.marker + "protocol C_DShim {}\n"),
                GeneratedFile(path: "Other.swift", contents: Self.marker + "struct New {}\n"),
            ],
            edits: [ConsumerEdit(path: consumer, original: "final class C {}\n", edited: "final class C { let d = 1 }\n")])
        #expect(changes.changedPaths.count == 3)
        // The new file and Other.swift are in place when the third fails.
        var renamed = 0
        changes.beforeRename = { path in
            if renamed == 2 {
                #expect(FileManager.default.fileExists(atPath: folder + "/New/Deep/C_DShim.swift"))
                throw CocoaError(.fileWriteNoPermission)
            }
            renamed += 1
        }
        let error = #expect(throws: GeneratorError.self) { try changes.write() }
        #expect(try #require(error).description.contains("every file was left as it was"))
        #expect(try Self.snapshot(folder) == before)
    }

    @Test func aRestorePointPutsBackEveryByte() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let consumer = folder + "/Consumer.swift"
        // No final newline, a non-ASCII byte, CRLF: restored as they were.
        try Self.write("final class C {}\r\n// café", to: consumer)
        let before = try Self.snapshot(folder)
        let changes = try FileChangeSet(
            root: folder,
            files: [GeneratedFile(path: "Shims/C_DShim.swift", contents: Self.marker + "protocol C_DShim {}\n")],
            edits: [ConsumerEdit(
                path: consumer, original: "final class C {}\r\n// café", edited: "final class C { let d = 1 }\n")])
        let restorePoint = try changes.write()
        #expect(try Self.snapshot(folder) != before)
        #expect(Set(try restorePoint.restore()) == ["Shims/C_DShim.swift", consumer])
        #expect(try Self.snapshot(folder) == before)
    }
}
#endif
