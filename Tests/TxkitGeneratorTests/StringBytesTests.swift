#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// The byte-wise text searches that replaced Foundation's on the index's
/// hot paths answer as Foundation's did.
@Suite("text searches in UTF-8")
struct StringBytesTests {
    @Test(arguments: [
        ("(Int) -> Void", "->"), ("Int", "->"), ("-", "->"), ("a->", "->"), ("", "x"), ("x", ""),
        ("let db = SQLiteDB(adopting: pool)", "SQLiteDB(adopting:"), ("SQLiteDB(adopting", "SQLiteDB(adopting:"),
        ("ééé->é", "é->"), ("aab", "ab"),
    ])
    func containsBytesAgreesWithFoundation(_ text: String, _ needle: String) {
        #expect(text.containsBytes(needle) == (needle.isEmpty || text.contains(needle)), "\(text) / \(needle)")
    }

    @Test(arguments: [
        ("SQLiteDB.shimOnlyBridge($tx)", "$tx", "tx"), ("Sources/Shims/$consumer", "$consumer", "TaskManager"),
        ("$tx.$tx$tx", "$tx", "tx"), ("aaaa", "aa", "b"), ("aaa", "aa", "aab"), ("no match", "$tx", "tx"),
        ("", "$tx", "tx"), ("$tx", "$tx", ""), ("x", "", "y"), ("é$txé", "$tx", "ü"), ("$t$tx", "$tx", "tx"),
    ])
    func replacingBytesAgreesWithFoundation(_ text: String, _ target: String, _ replacement: String) {
        #expect(
            text.replacingBytes(of: target, with: replacement)
                == text.replacingOccurrences(of: target, with: replacement), "\(text) / \(target) / \(replacement)")
    }

    @Test func theUncheckedMarkIsDroppedWithItsSpaces() {
        #expect("@unchecked Sendable".withoutUncheckedMark == "Sendable")
        #expect("  @unchecked   Sendable ".withoutUncheckedMark == "Sendable")
        #expect("Sendable".withoutUncheckedMark == "Sendable")
        #expect("UncheckedThing".withoutUncheckedMark == "UncheckedThing")
    }
}
#endif
