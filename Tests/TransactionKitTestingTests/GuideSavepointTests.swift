import Testing
import TransactionKit
import TransactionKitTesting

// The code that Guides/Testing.md shows in "Savepoints": an importer that
// rolls back one refused contact alone, and its MockDB test.

protocol ContactFinding: Sendable {
    func insert(_ name: String, _ tx: DBWriteTransaction) throws
}

enum ContactError: Error, Equatable {
    case invalidName(String)
}

final class ContactFinderMock: ContactFinding {
    let insert = MockMethod<String, Void>()

    func insert(_ name: String, _ tx: DBWriteTransaction) throws {
        try insert.call(name, tx, in: self)
    }
}

// snippet:begin savepoint-importer
/// Imports contacts in one write: a contact the finder refuses is rolled
/// back alone (its row, its count, its completion), and the others commit.
struct ContactImporter {
    let db: any DB
    let contacts: any ContactFinding
    private let counts = KeyValueStore(collection: "import")

    /// Returns the names that were refused.
    func importContacts(_ names: [String], onImported: @escaping @Sendable (String) -> Void) throws -> [String] {
        try db.write { tx in
            var refused: [String] = []
            for name in names {
                do {
                    try tx.inSavepoint {
                        try counts.setInt((counts.getInt("imported", transaction: tx) ?? 0) + 1, key: "imported", transaction: tx)
                        tx.addSyncCompletion { onImported(name) }
                        try contacts.insert(name, tx)
                        return .commit
                    }
                } catch ContactError.invalidName {
                    refused.append(name)
                }
            }
            return refused
        }
    }
}
// snippet:end savepoint-importer

@Suite("Guide: savepoints on MockDB")
struct GuideSavepointTests {
    // snippet:begin savepoint-test
    @Test func aRefusedContactIsRolledBackAloneAndTheOthersCommit() throws {
        let db = MockDB()
        let contacts = ContactFinderMock()
        contacts.insert.stub { name in
            if name.isEmpty { throw ContactError.invalidName(name) }
        }
        let imported = Locked<[String]>([])

        let refused = try ContactImporter(db: db, contacts: contacts)
            .importContacts(["Ann", "", "Bob"]) { name in imported.withValue { $0.append(name) } }

        #expect(refused == [""])
        #expect(imported.value == ["Ann", "Bob"], "the refused contact's completion never ran")
        #expect(db.keyValues(in: "import") == ["imported": 2], "its count was rolled back too")
        let write = try #require(db.transactionLog.writes.first)
        #expect(write.isCommittedWrite)
        #expect(write.savepoints == LoggedTransaction.Savepoints(released: 2, rolledBack: 1))
        #expect(contacts.insert.callRecords.map(\.isInRolledBackSavepoint) == [false, true, false])
    }
    // snippet:end savepoint-test
}
