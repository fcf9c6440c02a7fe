#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// An ext4 file system on a loop device whose backing file lives on a small
/// tmpfs, to make the storage device itself fail writes for real: once the
/// tmpfs is full, the loop device cannot store the blocks ext4 writes back,
/// ext4 reports `Buffer I/O error`s, and `fsync` fails although the ext4
/// file system has free space. (`dm-error` / `dm-flakey` would be the usual
/// tools; this machine has no device-mapper.)
///
/// Needs root, `losetup` and `mkfs.ext4`; elsewhere the test is cancelled
/// with the reason.
final class FailingBlockDevice {
    let mountPoint: String
    private let backing: String
    private var loopDevice: String?
    private var filler: String?

    private init(mountPoint: String) {
        self.mountPoint = mountPoint
        self.backing = mountPoint + "-backing"
    }

    /// Mounts an ext4 file system of 32 MiB at `mountPoint`, backed by a
    /// sparse file on an 8 MiB tmpfs.
    static func make(at mountPoint: String) throws -> FailingBlockDevice {
        #if os(Linux)
        guard geteuid() == 0 else {
            try Test.cancel("a failing block device needs root (tmpfs, losetup, mount); not running as root")
        }
        for tool in ["/usr/sbin/losetup", "/usr/sbin/mkfs.ext4", "/usr/sbin/blockdev"] where !FileManager.default.isExecutableFile(atPath: tool) {
            try Test.cancel("a failing block device needs \(tool), which is missing")
        }
        let device = FailingBlockDevice(mountPoint: mountPoint)
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: device.backing, withIntermediateDirectories: true)
        try SmallFileSystem.mount(at: device.backing, bytes: 8 * 1024 * 1024)
        let image = device.backing + "/ext4.img"
        do {
            try device.run("/usr/bin/truncate", ["-s", "32M", image])
            try device.run("/usr/sbin/mkfs.ext4", ["-q", "-F", "-E", "nodiscard", image])
            let loop = try device.run("/usr/sbin/losetup", ["-f", "--show", image])
            device.loopDevice = loop
            try device.run("/usr/sbin/blockdev", ["--setrw", loop])
            try device.mountExt4()
        } catch {
            device.remove()
            try Test.cancel("cannot set up a loop device here: \(error)")
        }
        return device
        #else
        try Test.cancel("a failing block device is only made on Linux")
        #endif
    }

    /// Makes the device fail every write of a block not stored yet: fills
    /// the tmpfs that holds its backing file.
    func failWrites() throws {
        filler = try SmallFileSystem.fill(backing)
    }

    /// Gives the device room again.
    func restoreWrites() {
        if let filler {
            try? FileManager.default.removeItem(atPath: filler)
        }
        filler = nil
    }

    /// Unmounts and mounts the ext4 file system again, so that what is read
    /// next comes from the device, not from the page cache.
    func remount() throws {
        _ = WriteProtection.run("/usr/bin/umount", [mountPoint])
        try mountExt4()
    }

    /// Unmounts everything and detaches the loop device.
    func remove() {
        restoreWrites()
        _ = WriteProtection.run("/usr/bin/umount", [mountPoint])
        if let loopDevice {
            _ = WriteProtection.run("/usr/sbin/losetup", ["-d", loopDevice])
        }
        SmallFileSystem.unmount(backing)
    }

    private func mountExt4() throws {
        guard let loopDevice else { return }
        try run("/usr/bin/mount", ["-t", "ext4", "-o", "errors=continue", loopDevice, mountPoint])
        _ = chmod(mountPoint, 0o700)
    }

    @discardableResult
    private func run(_ executable: String, _ arguments: [String]) throws -> String {
        let (ok, output) = WriteProtection.run(executable, arguments)
        guard ok else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")): \(output)"])
        }
        return output
    }
}
