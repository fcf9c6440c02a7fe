import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: `AccountManager` on `MockDB` with a mocked legacy user
/// finder. No SQL, no schema, no file; they run in parallel.
@Suite("Unit: AccountManager on MockDB")
struct AccountManagerTests {
    // snippet:begin account-unit-test
    @Test func registeringTrimsTheNameAndInsertsTheUser() throws {
        let db = MockDB()
        let users = AccountManager.Mocks.LegacyUserFinder()
        users.userByName.returns(nil)
        users.insertUser.stub { name in User(id: 7, name: name) }
        let accounts = AccountManager(db: db, users: users)

        let user = try accounts.register(name: "  Alice ")

        #expect(user == User(id: 7, name: "Alice"))
        #expect(users.userByName.calls == ["Alice"])
        #expect(users.insertUser.calls == ["Alice"])
        #expect(db.statistics == MockDB.Statistics(writes: 1, commits: 1))
    }
    // snippet:end account-unit-test

    @Test(arguments: ["", " x ", String(repeating: "a", count: 33), "bob!", "eve\u{7}"])
    func anInvalidNameOpensNoTransaction(name: String) throws {
        let db = MockDB()
        // Nothing stubbed: any call to the finder would fail the test.
        let users = AccountManager.Mocks.LegacyUserFinder()
        let accounts = AccountManager(db: db, users: users)

        #expect(throws: AccountManager.Failure.self) { try accounts.register(name: name) }

        #expect(users.userByID.calls.isEmpty && users.userByName.calls.isEmpty)
        #expect(users.insertUser.calls.isEmpty && users.setBlocked.calls.isEmpty)
        #expect(db.writeCount == 0)
    }

    @Test func aTakenNameRollsBackWithoutInserting() throws {
        let db = MockDB()
        let users = AccountManager.Mocks.LegacyUserFinder()
        users.userByName.returns(User(id: 1, name: "alice"))
        let accounts = AccountManager(db: db, users: users)

        #expect(throws: AccountManager.Failure.nameTaken("Alice")) { try accounts.register(name: "Alice") }

        #expect(users.userByName.calls == ["Alice"])
        #expect(users.insertUser.calls.isEmpty)
        #expect(db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }

    /// A registration that raced another one to the same name passes the
    /// check, and the database's unique index refuses the insert: the mock
    /// throws the very `DBConstraintViolation` an `SQLiteDB` would.
    @Test func aNameTakenByARacingRegistrationIsReportedAsTaken() throws {
        let db = MockDB()
        let users = AccountManager.Mocks.LegacyUserFinder()
        users.userByName.returns(nil)
        users.insertUser.fails(with: DBConstraintViolation(kind: .unique, table: "user", columns: ["name"]))
        let accounts = AccountManager(db: db, users: users)

        #expect(throws: AccountManager.Failure.nameTaken("Alice")) { try accounts.register(name: "Alice") }

        #expect(users.insertUser.calls == ["Alice"])
        #expect(db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }

    @Test func lookingUpAUserReadsOnce() throws {
        let db = MockDB()
        let users = AccountManager.Mocks.LegacyUserFinder()
        users.userByName.stub { $0 == "Alice" ? User(id: 1, name: "Alice") : nil }
        let accounts = AccountManager(db: db, users: users)

        #expect(try accounts.user(named: " Alice ")?.id == 1)
        #expect(try accounts.user(named: "Bob") == nil)
        #expect(db.statistics == MockDB.Statistics(reads: 2))
    }

    @Test func blockingAUserWritesOnce() throws {
        let db = MockDB()
        let users = AccountManager.Mocks.LegacyUserFinder()
        users.userByID.stub { User(id: $0, name: "Mallory") }
        users.setBlocked.returns(())

        let changed = try AccountManager(db: db, users: users).block(userID: 3)

        #expect(changed)
        #expect(users.setBlocked.calls.filter(\.isBlocked).map(\.userID) == [3])
        #expect(db.commitCount == 1)
    }

    @Test func blockingABlockedUserWritesNothing() throws {
        let users = AccountManager.Mocks.LegacyUserFinder()
        users.userByID.stub { User(id: $0, name: "Mallory", isBlocked: true) }
        // setBlocked is not stubbed: calling it would fail this test.

        let changed = try AccountManager(db: MockDB(), users: users).block(userID: 3)

        #expect(!changed)
        #expect(users.userByID.calls == [3])
        #expect(users.setBlocked.calls.isEmpty)
    }

    @Test func blockingAnUnknownUserFails() throws {
        let users = AccountManager.Mocks.LegacyUserFinder()
        users.userByID.returns(nil)

        #expect(throws: AccountManager.Failure.unknownUser(42)) {
            try AccountManager(db: MockDB(), users: users).block(userID: 42)
        }
    }

    // snippet:begin unimplemented-test
    @Test func anUnstubbedCallFailsTheTestInsteadOfCrashing() throws {
        let db = MockDB()
        let users = AccountManager.Mocks.LegacyUserFinder()
        users.userByName.returns(nil)
        // insertUser is not stubbed: the mock records an issue and throws.
        let accounts = AccountManager(db: db, users: users)

        try withKnownIssue {
            _ = try accounts.register(name: "Alice")
        } matching: { issue in
            issue.description.contains("AccountManager_LegacyUserFinderMock.insertUser(named:_:) was called")
                || issue.error is UnimplementedError
        }
        #expect(db.rollbackCount == 1)
    }
    // snippet:end unimplemented-test
}
