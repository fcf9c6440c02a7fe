import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import ChatCore

/// `ContactManager` after `txkit migrate`: the `ContactStore` it reaches
/// through `Dependencies` is passed to the generated
/// `ContactManager.Mocks.Database`, which stands for it on a `MockDB`.
final class ContactManagerMockDBTests {
    let db = MockDB()
    let notifications = PostedNotifications()
    let dependencies: Dependencies
    let dataAccess = ContactManager.Mocks.Database()
    let manager: ContactManager

    init() throws {
        dependencies = try ChatMockDB.dependencies(notifying: notifications)
        manager = ContactManager(db: db, dependencies: dependencies, dataAccess: dataAccess)
    }

    @Test func theDisplayNameIsTheNicknameTheProfileNameOrTheAddress() throws {
        dataAccess.contactContactStore.stub { _, address in
            switch address {
            case "alice": return Contact(address: "alice", profileName: "Alice", nickname: "Al")
            case "bob": return Contact(address: "bob", profileName: "Bob")
            default: return nil
            }
        }

        #expect(try manager.displayName(for: "alice") == "Al")
        #expect(try manager.displayName(for: "bob") == "Bob")
        #expect(try manager.displayName(for: "carol") == "carol")
        #expect(dataAccess.contactContactStore.calls.allSatisfy { $0.contactStore === dependencies.contactStore })
        #expect(db.transactionLog.transactions.map(\.kind) == [.read, .read, .read])
    }

    @Test func aContactThatCannotBeReadShowsItsAddress() throws {
        dataAccess.contactContactStore.fails(with: ChatError.messageNotFound("any"))

        let name = try db.read { tx in manager.displayName(for: "alice", transaction: tx) }

        #expect(name == "alice")
    }

    @Test func aNewProfileNameCreatesTheContactThenAnnouncesIt() throws {
        dataAccess.contact.returns(nil)
        dataAccess.upsert.returns()

        try manager.updateProfileName("Alice", for: "alice", timestamp: 42)

        let saved = try #require(dataAccess.upsert.calls.first?.contact)
        #expect(saved.address == "alice" && saved.profileName == "Alice" && saved.updatedAt == 42 && !saved.isBlocked)
        let write = try #require(db.transactionLog.sharedTransaction(of: dataAccess.contact, dataAccess.upsert))
        #expect(write.isCommittedWrite && write.hooks.syncCompletions == 1)
        #expect(notifications.descriptions == ["contactChanged alice"])
    }

    @Test func blockingKeepsTheRestOfTheContact() throws {
        dataAccess.contact.returns(Contact(address: "mallory", profileName: "Mal", nickname: "M"))
        dataAccess.upsert.returns()

        try manager.setBlocked(true, address: "mallory", timestamp: 7)

        let saved = try #require(dataAccess.upsert.calls.first?.contact)
        #expect(saved.isBlocked && saved.profileName == "Mal" && saved.nickname == "M" && saved.updatedAt == 7)
        #expect(dataAccess.upsert.calls.allSatisfy { $0.contactStore === dependencies.contactStore })
    }

    @Test func aFailedUpsertRollsBackAndAnnouncesNothing() throws {
        dataAccess.contact.returns(nil)
        dataAccess.upsert.fails(with: ChatError.threadNotFound("disk"))

        #expect(throws: ChatError.threadNotFound("disk")) { try self.manager.setBlocked(true, address: "mallory", timestamp: 7) }
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true])
        #expect(notifications.posted.isEmpty)
    }
}
