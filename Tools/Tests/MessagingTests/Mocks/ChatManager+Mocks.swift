import Messaging

extension ChatManager {
    /// Test doubles for `ChatManager.Shims`; they live in the test target.
    enum Mocks {
        typealias LegacyUserFinder = ChatManager_LegacyUserFinderMock
        typealias LegacyMessageFinder = ChatManager_LegacyMessageFinderMock
        typealias LegacyMessageSanitizer = ChatManager_LegacyMessageSanitizerMock
    }
}
