#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDBSQLite
import TransactionKit

extension SQLiteDB {
    /// Checks that `path` can name a database file before anything is
    /// created: not too long for SQLite or the operating system, in an
    /// existing directory, and, when something exists at the path, a
    /// regular file (following symbolic links).
    ///
    /// Each failure is named for what it is: a path too long is not "a
    /// directory that does not exist", and `/dev/null` is not "a disk I/O
    /// error".
    static func checkPath(_ path: String) throws(DBError) {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let limit = sqlitePathLimit
        if absolute.utf8.count > limit {
            var error = DBError(
                kind: .cannotOpen, operation: .open, path: path,
                message: "the absolute path is \(absolute.utf8.count) bytes long; SQLite opens paths of at most \(limit) bytes")
            error.specificAdvice = "Choose a shorter path (a shorter directory, or a symbolic link to it)."
            throw error
        }
        let directory = (path as NSString).deletingLastPathComponent
        let directoryPath = directory.isEmpty ? "." : directory
        var status = stat()
        if stat(directoryPath, &status) != 0 {
            throw pathError(errno, path: path, subject: directoryPath, missingMessage: "no directory at \(directoryPath)")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw DBError(
                kind: .missingDirectory, operation: .open, path: path,
                message: "\(directoryPath) is not a directory")
        }
        if stat(path, &status) == 0 {
            try checkRegularFile(status, path: path)
        } else if errno != ENOENT {
            throw pathError(errno, path: path, subject: path, missingMessage: "no file at \(path)")
        }
    }

    /// The longest absolute path SQLite's default VFS opens: its
    /// `mxPathname`, less the 8 bytes SQLite keeps for a `-journal` or
    /// `-wal` suffix.
    private static var sqlitePathLimit: Int {
        let maximum = sqlite3_vfs_find(nil).map { Int($0.pointee.mxPathname) } ?? 512
        return maximum - 8
    }

    /// The error of a `stat` that failed with `code` on `subject` (the
    /// database path or its directory).
    private static func pathError(_ code: Int32, path: String, subject: String, missingMessage: String) -> DBError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOENT:
            return DBError(kind: .missingDirectory, operation: .open, path: path, message: missingMessage)
        case ENOTDIR:
            return DBError(
                kind: .missingDirectory, operation: .open, path: path,
                message: "a component of \(subject) is not a directory")
        case ENAMETOOLONG:
            var error = DBError(
                kind: .cannotOpen, operation: .open, path: path,
                message: "the path is longer than the operating system accepts (\(reason))")
            error.specificAdvice = "Choose a shorter path (a shorter directory, or a symbolic link to it)."
            return error
        case ELOOP:
            return DBError(
                kind: .cannotOpen, operation: .open, path: path,
                message: "too many symbolic links, or a loop of them, in \(subject) (\(reason))")
        case EACCES:
            return DBError(
                kind: .cannotOpen, operation: .open, path: path,
                message: "permission denied to search a directory of \(subject) (\(reason))")
        default:
            return DBError(kind: .cannotOpen, operation: .open, path: path, message: "cannot examine \(subject): \(reason)")
        }
    }

    /// Throws unless `status` (of the file at `path`, symbolic links
    /// followed) is a regular file's.
    private static func checkRegularFile(_ status: stat, path: String) throws(DBError) {
        let what: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: what = "a directory"
        case S_IFCHR: what = "a character device"
        case S_IFBLK: what = "a block device"
        case S_IFIFO: what = "a named pipe (FIFO)"
        case S_IFSOCK: what = "a socket"
        default: what = "not a regular file"
        }
        throw DBError(
            kind: .cannotOpen, operation: .open, path: path,
            message: "the path is \(what), not a regular file; a database is a regular file")
    }

    /// Creates the database file with `0600` permissions when nothing
    /// exists at the path, or adopts an existing empty file of this user as
    /// a new database by giving it `0600` permissions, and returns what it
    /// did, for ``SQLiteFileChanges/undo()`` should the open fail.
    ///
    /// A symbolic link is followed to its final target, which is created
    /// when it does not exist (a dangling link): the file is created by
    /// TransactionKit with `0600` permissions whatever the path resolves
    /// through, never by SQLite with the umask's.
    static func prepareFile(at path: String) throws(DBError) -> SQLiteFileChanges {
        let target = try finalTarget(of: path)
        var changes = SQLiteFileChanges()
        let descriptor = open(target, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor >= 0 {
            defer { closeFileDescriptor(descriptor) }
            var status = stat()
            // The umask may have removed bits of 0600: set them exactly.
            _ = fchmod(descriptor, 0o600)
            if fstat(descriptor, &status) == 0 {
                changes.createdFile = (target, status.st_dev, status.st_ino)
            }
            return changes
        }
        let code = errno
        let reason = String(cString: strerror(code))
        let through = target == path ? "" : " (through a symbolic link to \(target))"
        switch code {
        case EEXIST:
            var status = stat()
            guard stat(target, &status) == 0 else {
                return changes
            }
            try checkRegularFile(status, path: path)
            let mode = status.st_mode & 0o7777
            if status.st_size == 0, status.st_uid == geteuid(), mode != 0o600, chmod(target, 0o600) == 0 {
                changes.changedMode = (target, mode)
            }
            return changes
        case ENOENT:
            throw DBError(
                kind: .missingDirectory, operation: .open, path: path,
                message: "cannot create the file\(through): \(reason)")
        case EACCES, EROFS, EPERM:
            throw DBError(
                kind: .readOnly, operation: .open, path: path,
                message: "cannot create the file\(through): \(reason)")
        default:
            throw DBError(
                kind: .cannotOpen, operation: .open, path: path,
                message: "cannot create the file\(through): \(reason)")
        }
    }

    /// The path a chain of symbolic links at `path` ends at (the path
    /// itself when it is not a link); the last link's target may not exist.
    private static func finalTarget(of path: String) throws(DBError) -> String {
        var target = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(target, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else {
                return target
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(target, &buffer, buffer.count - 1)
            guard count >= 0 else {
                return target
            }
            let destination = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if destination.hasPrefix("/") {
                target = destination
            } else {
                let directory = (target as NSString).deletingLastPathComponent
                target = directory.isEmpty ? destination : directory + "/" + destination
            }
        }
        throw DBError(
            kind: .cannotOpen, operation: .open, path: path,
            message: "too many symbolic links, or a loop of them, at the path")
    }
}

/// The C library's `close(2)`, out of reach of ``SQLiteDB/close()`` inside
/// the type.
func closeFileDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
