#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// One child process of `txkit-torture`, started from this very executable,
/// whose standard output and error are read to their ends on other threads
/// (so that it never blocks on a full pipe) until it is killed.
final class TortureChild {
    /// What a child left when it ended.
    struct Ending {
        /// Whether the parent's `SIGKILL` ended it (rather than an exit or crash of its own).
        var wasKilled: Bool
        var status: Int32
        /// The complete lines it wrote to standard output.
        var lines: [Substring]
        var errorText: String
    }

    private let process = Process()
    private let collector: TortureCommand.PipeCollector

    /// Starts `executable` with `arguments`.
    init(executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        collector = TortureCommand.PipeCollector(output: output, errors: errors)
        try process.run()
        collector.start()
    }

    /// Sends `SIGKILL` if the child still runs, waits for it, and returns what it left.
    func kill() -> Ending {
        let wasRunning = process.isRunning
        if wasRunning {
            sendKill(to: process.processIdentifier)
        }
        process.waitUntilExit()
        let (output, errors) = collector.wait()
        let killed = wasRunning && process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        return Ending(
            wasKilled: killed,
            status: process.terminationStatus,
            lines: TortureOutput.completeLines(of: output),
            errorText: String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// `kill(2)` with `SIGKILL`, outside the class whose `kill()` hides the C function.
private func sendKill(to pid: pid_t) {
    _ = kill(pid, SIGKILL)
}
