import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: `PeoplePicker` on `MockDB` with a mocked user search.
@Suite("Unit: PeoplePicker on MockDB")
struct PeoplePickerTests {
    // snippet:begin people-picker-unit-test
    @Test func suggestionsLeaveBlockedUsersOut() throws {
        let db = MockDB()
        let search = UserSearchFindingMock()
        search.users.returns([User(id: 1, name: "Alfred", isBlocked: true), User(id: 2, name: "Alice")])
        let picker = PeoplePicker(db: db, userSearchFinder: search)

        #expect(try picker.suggestions(for: "  al ") == [User(id: 2, name: "Alice")])
        #expect(search.users.calls.map(\.prefix) == ["al"])
        #expect(search.users.calls.map(\.limit) == [PeoplePicker.limit])
        #expect(db.readCount == 1)
    }
    // snippet:end people-picker-unit-test

    @Test func blankTextOpensNoTransaction() throws {
        let db = MockDB()
        // Nothing stubbed: a call to the search would fail the test.
        let picker = PeoplePicker(db: db, userSearchFinder: UserSearchFindingMock())

        #expect(try picker.suggestions(for: "   ").isEmpty)
        #expect(db.readCount == 0)
    }
}
