extension InboxManager {
    /// What `InboxManager` needs from legacy classes, as protocols.
    public enum Shims {
        /// See ``InboxManager_LegacyMessageFinderShim``.
        public typealias LegacyMessageFinder = InboxManager_LegacyMessageFinderShim
    }

    /// The production conformances, bridging to the legacy classes.
    public enum Wrappers {
        /// See ``InboxManager_LegacyMessageFinderWrapper``.
        public typealias LegacyMessageFinder = InboxManager_LegacyMessageFinderWrapper
    }
}
