import GRDB

/// Community rooms, an instance a poller holds. Its finders differ by
/// arity, and return a nested type.
package final class OpenGroupStore: Sendable {
    /// A room on a server.
    package struct Room: Equatable, Sendable {
        package var server: String
        package var token: String
        package var name: String
    }

    package init() {}

    /// The room with this token on the server.
    package func room(_ db: Database, server: String, token: String) -> Room? {
        guard let name = try? String.fetchOne(
            db, sql: "SELECT name FROM relay_room WHERE server = ? AND token = ?", arguments: [server, token])
        else { return nil }
        return Room(server: server, token: token, name: name)
    }

    /// Every room on the server.
    package func rooms(_ db: Database, server: String) -> [Room] {
        let rows = (try? Row.fetchAll(db, sql: "SELECT token, name FROM relay_room WHERE server = ?", arguments: [server])) ?? []
        return rows.map { Room(server: server, token: $0["token"], name: $0["name"]) }
    }

    /// Records when the server was last polled.
    package func setLastPolled(_ db: Database, server: String, at timestamp: Int64) throws {
        try db.execute(sql: "UPDATE relay_room SET lastPolled = ? WHERE server = ?", arguments: [timestamp, server])
    }
}
