import Messaging

// snippet:begin account-mocks-namespace
extension AccountManager {
    /// Test doubles for `AccountManager.Shims`; they live in the test target.
    enum Mocks {
        typealias LegacyUserFinder = AccountManager_LegacyUserFinderMock
    }
}
// snippet:end account-mocks-namespace
