import TransactionKit
import TransactionKitSQLite

/// Polls community servers, through the room store it holds.
package final class CommunityPoller: Sendable {
    let db: any DB
    let openGroups: OpenGroupStore

    package init(db: any DB, openGroups: OpenGroupStore = OpenGroupStore()) {
        self.db = db
        self.openGroups = openGroups
    }

    /// Records a poll of `server`; returns its room names and whether
    /// the room `token` is known.
    package func poll(server: String, token: String, at timestamp: Int64) throws -> ([String], Bool) {
        try db.write { tx in
            let database = try SQLiteDB.shimOnlyBridge(tx)
            try openGroups.setLastPolled(database, server: server, at: timestamp)
            let names = openGroups.rooms(database, server: server).map(\.name)
            let known: OpenGroupStore.Room? = openGroups.room(database, server: server, token: token)
            return (names, known != nil)
        }
    }
}
