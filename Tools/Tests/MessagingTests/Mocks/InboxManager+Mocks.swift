import Messaging

extension InboxManager {
    /// Test doubles for `InboxManager.Shims`; they live in the test target.
    enum Mocks {
        typealias LegacyMessageFinder = InboxManager_LegacyMessageFinderMock
    }
}
