extension ChatManager {
    /// What `ChatManager` needs from legacy classes, as protocols.
    public enum Shims {
        /// See ``ChatManager_LegacyUserFinderShim``.
        public typealias LegacyUserFinder = ChatManager_LegacyUserFinderShim
        /// See ``ChatManager_LegacyMessageFinderShim``.
        public typealias LegacyMessageFinder = ChatManager_LegacyMessageFinderShim
        /// See ``ChatManager_LegacyMessageSanitizerShim``.
        public typealias LegacyMessageSanitizer = ChatManager_LegacyMessageSanitizerShim
    }

    /// The production conformances, bridging to the legacy classes.
    public enum Wrappers {
        /// See ``ChatManager_LegacyUserFinderWrapper``.
        public typealias LegacyUserFinder = ChatManager_LegacyUserFinderWrapper
        /// See ``ChatManager_LegacyMessageFinderWrapper``.
        public typealias LegacyMessageFinder = ChatManager_LegacyMessageFinderWrapper
        /// See ``ChatManager_LegacyMessageSanitizerWrapper``.
        public typealias LegacyMessageSanitizer = ChatManager_LegacyMessageSanitizerWrapper
    }
}
