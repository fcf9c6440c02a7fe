// snippet:begin account-namespaces
extension AccountManager {
    /// What `AccountManager` needs from legacy classes, as protocols.
    public enum Shims {
        /// See ``AccountManager_LegacyUserFinderShim``.
        public typealias LegacyUserFinder = AccountManager_LegacyUserFinderShim
    }

    /// The production conformances, bridging to the legacy classes.
    public enum Wrappers {
        /// See ``AccountManager_LegacyUserFinderWrapper``.
        public typealias LegacyUserFinder = AccountManager_LegacyUserFinderWrapper
    }
}
// snippet:end account-namespaces
