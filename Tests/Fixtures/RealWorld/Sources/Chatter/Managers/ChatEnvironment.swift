/// The app's dependencies, passed to managers (not a legacy type: it only
/// holds one).
package struct ChatEnvironment: Sendable {
    package let contactStore: ContactStore

    package init(contactStore: ContactStore = .shared) {
        self.contactStore = contactStore
    }
}
