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

    static func unmount(_ path: String) {
        #if os(Linux)
        _ = WriteProtection.run("/usr/bin/umount", [path])
        #endif
    }
}
