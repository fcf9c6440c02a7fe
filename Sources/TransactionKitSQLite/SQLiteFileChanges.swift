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
    /// it) and no connection holds a lock on it.
    ///
    /// Another process may open the same new file at the same moment. The
    /// file is removed only while TransactionKit holds a write lock on the
    /// byte range where SQLite takes its locks (from `PENDING_BYTE`,
    /// 0x40000000, 512 bytes: pending, reserved and shared), taken with an
    /// open-file-description lock on Linux, which conflicts with SQLite's
    /// locks even in this process. So:
    /// - a connection that is reading or writing the file holds such a lock:
    ///   the file stays;
    /// - a connection that opened the file but holds no lock yet cannot
    ///   write the header while the lock is held: the file is still empty
    ///   when it is removed, and that connection's next access fails loudly
    ///   (SQLite finds its file gone: an I/O error, `SQLITE_IOERR_FSTAT`, or
    ///   `SQLITE_READONLY_DBMOVED`) instead of writing to a removed file.
    ///
    /// Without the lock, a connection holding the new file open lost its
    /// file under it (`SQLiteFileCleanupTests`).
    func undo() {
        if let changedMode {
            _ = chmod(changedMode.path, changedMode.mode)
        }
        if let createdFile {
            removeIfUnused(createdFile)
        }
    }

    private func removeIfUnused(_ file: (path: String, device: dev_t, inode: ino_t)) {
        let descriptor = open(file.path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            return
        }
        // Closing the descriptor releases the lock, after the unlink.
        defer { closeFileDescriptor(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0x4000_0000
        lock.l_len = 512
        guard fcntl(descriptor, Self.setLockCommand, &lock) == 0 else {
            // Some connection holds a lock on the file: it is in use.
            return
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0,
            status.st_dev == file.device,
            status.st_ino == file.inode,
            status.st_size == 0,
            lstat(file.path, &status) == 0,
            status.st_dev == file.device,
            status.st_ino == file.inode
        else {
            return
        }
        _ = unlink(file.path)
    }

    /// `F_OFD_SETLK` on Linux: a lock owned by the open file description,
    /// which conflicts with SQLite's process-owned locks even in this
    /// process, and whose release does not drop them. Elsewhere `F_SETLK`.
    private static var setLockCommand: Int32 {
        #if os(Linux)
        37 // F_OFD_SETLK
        #else
        F_SETLK
        #endif
    }
}
