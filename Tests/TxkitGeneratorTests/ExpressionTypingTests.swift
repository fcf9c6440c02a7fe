#if Txkit
import Testing
import TxkitGenerator

/// A consumer's uses are found wherever the source says an expression is
/// of the legacy type, not only where it names it.
@Suite("Expression typing")
struct ExpressionTypingTests {
    static let legacy = """
        struct LegacyTransaction {}
        struct Item { var name: String }
        final class Legacy {
            static let shared = Legacy()
            static func current() -> Legacy { shared }
            static func fetchOrDefault(id: Int, transaction: LegacyTransaction) -> Legacy { Legacy() }
            init() {}
            func findViaShared(id: Int, transaction: LegacyTransaction) throws -> Item? { nil }
            func updateViaFactory(_ item: Item, transaction: LegacyTransaction) {}
            func removeViaInferredLocal(id: Int, transaction: LegacyTransaction) {}
            func touchViaChain(transaction: LegacyTransaction) {}
            func countViaMethodResult(transaction: LegacyTransaction) -> Int { 0 }
            func closeViaTemporary(transaction: LegacyTransaction) {}
            func child(transaction: LegacyTransaction) -> Legacy? { nil }
            func renameViaIfLet(transaction: LegacyTransaction) {}
            func purgeViaGuardLet(transaction: LegacyTransaction) {}
            func archiveViaOptionalChain(transaction: LegacyTransaction) {}
            func sealViaClosure(transaction: LegacyTransaction) {}
            func pingViaStoredSingleton(transaction: LegacyTransaction) {}
        }
        final class Thread {
            var associatedData = Legacy()
            func data() -> Legacy { Legacy() }
        }
        """

    static let consumer = """
        final class C {
            let store = Legacy.shared
            func run(_ tx: LegacyTransaction, thread: Thread) throws {
                _ = try Legacy.shared.findViaShared(id: 1, transaction: tx)
                let factory = Legacy.current()
                factory.updateViaFactory(Item(name: "a"), transaction: tx)
                _ = Legacy.fetchOrDefault(id: 2, transaction: tx)
                let data = thread.data()
                data.removeViaInferredLocal(id: 2, transaction: tx)
                thread.associatedData.touchViaChain(transaction: tx)
                _ = thread.data().countViaMethodResult(transaction: tx)
                Legacy().closeViaTemporary(transaction: tx)
                if let child = data.child(transaction: tx) {
                    child.renameViaIfLet(transaction: tx)
                }
                guard let again = try? Legacy.shared.child(transaction: tx) else { return }
                again.purgeViaGuardLet(transaction: tx)
                data.child(transaction: tx)?.archiveViaOptionalChain(transaction: tx)
                let seal = { (legacy: Legacy) in legacy.sealViaClosure(transaction: tx) }
                seal(data)
                store.pingViaStoredSingleton(transaction: tx)
            }
        }
        """

    static func names(_ requirements: [String]) -> [String] {
        requirements.map { String($0.dropFirst("func ".count).prefix { $0 != "(" }) }
    }

    @Test func everyFormOfUseIsFound() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Consumer.swift", Self.consumer)])
        #expect(Self.names(try tree.requirements("C", "Legacy")) == [
            "fetchOrDefault", "findViaShared", "updateViaFactory", "removeViaInferredLocal", "touchViaChain",
            "countViaMethodResult", "closeViaTemporary", "child", "renameViaIfLet", "purgeViaGuardLet",
            "archiveViaOptionalChain", "sealViaClosure", "pingViaStoredSingleton",
        ])
    }

    /// A member that takes a legacy transaction, called on a value the
    /// consumer fetched from the legacy type: found, but a shim (one
    /// wrapper) cannot stand for every fetched value, so it is refused with
    /// the place.
    @Test func aCallOnAFetchedValueIsRefusedWithThePlace() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Consumer.swift", """
            final class C {
                func run(_ tx: LegacyTransaction) {
                    let data = Legacy.fetchOrDefault(id: 2, transaction: tx)
                    data.removeViaInferredLocal(id: 2, transaction: tx)
                }
            }
            """)])
        let error = #expect(throws: GeneratorError.self) { try tree.shim("C", "Legacy") }
        let message = try #require(error).description
        #expect(message.contains("\n  Consumer.swift:4: "))
        #expect(message.contains("a value fetched with `Legacy.fetchOrDefault(…)`"))
    }

    @Test func aSingletonAccessorIsNotAMemberOfTheShim() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Consumer.swift", Self.consumer)])
        let shim = try tree.shim("C", "Legacy")
        #expect(!shim.contains("var shared"))
        #expect(!shim.contains("func current"))
    }

    @Test func applyRefusesUsesItCannotRouteWithThePlace() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Consumer.swift", """
            final class C {
                init() {}
                func run(_ tx: LegacyTransaction, thread: Thread) {
                    thread.associatedData.closeViaTemporary(transaction: tx)
                }
            }
            """)])
        let error = #expect(throws: GeneratorError.self) { try tree.generator.shim(consumer: "C", legacy: "Legacy").edits.get() }
        let message = try #require(error).description
        #expect(message.contains("Consumer.swift:4:"))
        #expect(message.contains("through `thread.associatedData`"))
    }
}
#endif
