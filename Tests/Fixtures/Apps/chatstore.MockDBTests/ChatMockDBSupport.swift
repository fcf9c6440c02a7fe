import Foundation
@testable import ChatCore

/// What the chatstore managers' MockDB tests share.
enum ChatMockDB {
    /// The `Dependencies` a migrated manager still takes, for its contact
    /// store and notification center.
    ///
    /// `Dependencies` cannot be built without a `DatabaseStorage`, so this
    /// one holds a real, empty database file, which the managers under test
    /// never use: every transaction they open is the `MockDB`'s.
    static func dependencies(notifying notifications: PostedNotifications = PostedNotifications()) throws -> Dependencies {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ChatMockDB-\(UUID().uuidString)")
        let storage = try DatabaseStorage(path: folder.appendingPathComponent("unused.sqlite").path)
        return Dependencies(databaseStorage: storage, contactStore: ContactStore(), notificationCenter: notifications.center)
    }

    /// A thread's settings as the database would return them (the type has
    /// no public initializer for them: it is decoded, as GRDB does).
    static func associatedData(
        _ threadUniqueId: String, isArchived: Bool = false, isMarkedUnread: Bool = false, isMuted: Bool = false
    ) throws -> ThreadAssociatedData {
        let json = #"{"threadUniqueId": "\#(threadUniqueId)", "isArchived": \#(isArchived), "isMarkedUnread": \#(isMarkedUnread), "isMuted": \#(isMuted)}"#
        return try JSONDecoder().decode(ThreadAssociatedData.self, from: Data(json.utf8))
    }
}

/// A `ChatNotificationCenter` and every notification it posts, in order.
final class PostedNotifications {
    let center = ChatNotificationCenter()
    private(set) var posted: [ChatNotification] = []

    init() {
        for name in ChatNotification.Name.allCases {
            center.addObserver(forName: name) { [unowned self] notification in self.posted.append(notification) }
        }
    }

    /// `name object key=value…`, the user info sorted by key.
    var descriptions: [String] {
        posted.map { notification in
            ([notification.name.rawValue, notification.object ?? "-"]
                + notification.userInfo.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
                .joined(separator: " ")
        }
    }
}
