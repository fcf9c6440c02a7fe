#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// A size-limited tmpfs, to fill a disk for real. Mounting needs root (or
/// CAP_SYS_ADMIN); elsewhere the test is cancelled with the reason.
enum SmallFileSystem {
    static func mount(at path: String, bytes: Int) throws {
        #if os(Linux)
        guard geteuid() == 0 else {
            try Test.cancel("mounting a size-limited tmpfs needs root; not running as root")
        }
        let (ok, output) = WriteProtection.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes),mode=0700", "tmpfs", path])
        if !ok {
            try Test.cancel("cannot mount a size-limited tmpfs here: \(output)")
        }
        #else
        try Test.cancel("a size-limited file system is only made on Linux (tmpfs)")
        #endif
    }

    /// Fills the file system mounted at `mountPoint` with one file, until
    /// writing fails for lack of space; returns the file's path.
    static func fill(_ mountPoint: String) throws -> String {
        let path = mountPoint + "/filler"
        let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x46, count: 4096)
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // A last partial block, if any.
        while write(descriptor, chunk, 1) > 0 {}
        return path
    }

    static func unmount(_ path: String) {
        #if os(Linux)
        _ = WriteProtection.run("/usr/bin/umount", [path])
        #endif
    }
}
