import Messaging
import Testing
import TransactionKit
import TransactionKitSQLite

/// Integration tests: `PeoplePicker` with its production user search on a
/// migrated `SQLiteDB` (the SQL, the `LIKE` escaping).
@Suite("Integration: PeoplePicker on SQLiteDB")
struct PeoplePickerIntegrationTests {
    @Test func suggestionsComeByNameWithoutBlockedUsers() throws {
        let db = try TestDatabases.withAliceAndBob.makeDatabase()
        let users = AccountManager(db: db, users: AccountManager.Wrappers.LegacyUserFinder())
        let alfred = try users.register(name: "Alfred")
        _ = try users.block(userID: alfred.id)

        let picker = PeoplePicker(db: db, userSearchFinder: UserSearchFinder())
        #expect(try picker.suggestions(for: "al").map(\.name) == ["Alice"])
        #expect(try picker.suggestions(for: "B").map(\.name) == ["Bob"])
    }

    @Test func percentAndUnderscoreMatchThemselves() throws {
        let db = try TestDatabases.withAliceAndBob.makeDatabase()
        let picker = PeoplePicker(db: db, userSearchFinder: UserSearchFinder())
        #expect(try picker.suggestions(for: "A%").isEmpty)
        #expect(try picker.suggestions(for: "_lice").isEmpty)
    }
}
