#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// Makes a file or a directory unwritable for this process, for real.
///
/// Permission bits do not stop root, and tests often run as root in
/// containers. As root, the protection is the immutable attribute
/// (`chattr +i`), which stops root too; otherwise it is `chmod a-w`. Either
/// way the protection is verified by trying to write; when it cannot be
/// made effective the test is cancelled with the reason.
final class WriteProtection {
    let path: String
    /// How the protection was made: `chattr +i` or `chmod a-w`.
    let method: String
    private let originalMode: mode_t
    private var removed = false

    private init(path: String, method: String, originalMode: mode_t) {
        self.path = path
        self.method = method
        self.originalMode = originalMode
    }

    /// Protects `path`, or cancels the current test with the reason.
    static func protect(_ path: String) throws -> WriteProtection {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        let isDirectory = (status.st_mode & S_IFMT) == S_IFDIR
        let protection: WriteProtection
        if geteuid() == 0 {
            let (ok, output) = run("/usr/bin/chattr", ["+i", path])
            guard ok else {
                try Test.cancel("running as root, and `chattr +i` is not available here (\(output)): cannot make \(path) read-only")
            }
            protection = WriteProtection(path: path, method: "chattr +i", originalMode: status.st_mode & 0o7777)
        } else {
            chmod(path, status.st_mode & 0o7777 & ~0o222)
            protection = WriteProtection(path: path, method: "chmod a-w", originalMode: status.st_mode & 0o7777)
        }
        if isWritable(path, isDirectory: isDirectory) {
            protection.remove()
            try Test.cancel("\(protection.method) did not make \(path) read-only on this file system")
        }
        return protection
    }

    /// Restores write access (also on deinit).
    func remove() {
        guard !removed else { return }
        removed = true
        if method == "chattr +i" {
            _ = Self.run("/usr/bin/chattr", ["-i", path])
        } else {
            chmod(path, originalMode)
        }
    }

    deinit { remove() }

    /// Tries to write: opens the file for writing, or creates a file in the directory.
    private static func isWritable(_ path: String, isDirectory: Bool) -> Bool {
        let target = isDirectory ? path + "/.write-probe-\(UUID().uuidString)" : path
        let descriptor = open(target, isDirectory ? (O_CREAT | O_EXCL | O_WRONLY) : O_WRONLY, 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        if isDirectory { unlink(target) }
        return true
    }

    static func run(_ executable: String, _ arguments: [String]) -> (Bool, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return (false, "\(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return (process.terminationReason == .exit && process.terminationStatus == 0, text)
    }
}
