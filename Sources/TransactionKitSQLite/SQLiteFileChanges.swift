#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What opening a database did to the file system before SQLite opened the
/// file, so that a failed open can undo it: the database file it created,
/// and the permissions it changed on a file it adopted.
struct SQLiteFileChanges {
    /// The file this open created (after following symbolic links), with
    /// its device and inode, to recognize it later.
    var createdFile: (path: String, device: dev_t, inode: ino_t)?

    /// The file whose permissions this open changed, and its former mode.
    var changedMode: (path: String, mode: mode_t)?

    /// Undoes the changes after a failed open: restores the permissions it
    /// changed, and removes the file it created if that file is still the
    /// same empty file (nothing, not even SQLite's header, was written to
    /// it).
    ///
    /// Another process may open the same new file at the same moment; once
    /// it has written to the file (the header, when it switches the file to
    /// WAL) the file is no longer empty and stays. Should it have opened the
    /// empty file and written nothing yet, SQLite notices the removal at its
    /// first write and fails it with `SQLITE_READONLY_DBMOVED`
    /// (``/TransactionKit/DBError/Kind/readOnly``): nothing is lost silently.
    func undo() {
        if let changedMode {
            _ = chmod(changedMode.path, changedMode.mode)
        }
        if let createdFile {
            var status = stat()
            guard lstat(createdFile.path, &status) == 0,
                status.st_dev == createdFile.device,
                status.st_ino == createdFile.inode,
                status.st_size == 0
            else {
                return
            }
            _ = unlink(createdFile.path)
        }
    }
}
