import Foundation

/// Damages one index of a database file for real: overwrites its root page
/// with bytes that are no b-tree page. The table's own pages, and the schema,
/// are untouched, so the file opens fine and only a statement that uses the
/// index fails.
enum IndexDamage {
    /// Damages `index` in the database at `path`, which must be closed, with
    /// no `-wal` file (every commit in the main file).
    static func damage(index: String, in path: String) throws {
        precondition(!FileManager.default.fileExists(atPath: path + "-wal"), "checkpoint and close the database first")
        let connection = try RawSQLiteConnection(path)
        let rootPage = try connection.integer("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND name = '\(index)'")
        let pageSize = try connection.integer("PRAGMA page_size")
        connection.close()
        precondition(rootPage > 1)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64((rootPage - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try handle.synchronize()
        try handle.close()
    }
}
