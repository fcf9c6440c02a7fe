#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The parent side of the concurrent-open test: several
/// ``ConcurrentOpenWorker`` processes, each a copy of this test binary, and
/// the pipes to talk to them.
///
/// Its methods block the calling thread on pipes: call them from a thread
/// of your own (``onDedicatedThread(_:)``), never from the cooperative pool.
final class ConcurrentOpenWorkerGroup {
    private let processes: [Process]
    private let requests: [FileHandle]
    private var replies: [ReplyReader]

    /// Starts `count` workers.
    init(count: Int) throws {
        // The test binary: the workers run its `worker()` test only.
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var environment = ProcessInfo.processInfo.environment
        environment[ConcurrentOpenWorker.environmentKey] = "1"
        var processes: [Process] = []
        var requests: [FileHandle] = []
        var replies: [ReplyReader] = []
        for _ in 0..<count {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["--testing-library", "swift-testing", "--filter", "SQLiteConcurrentOpenTests/worker"]
            process.environment = environment
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            processes.append(process)
            requests.append(input.fileHandleForWriting)
            replies.append(ReplyReader(output.fileHandleForReading))
        }
        self.processes = processes
        self.requests = requests
        self.replies = replies
    }

    /// Asks every worker to open `path` (all requests are written before
    /// any answer is read), and returns their answers, in worker order:
    /// `nil` for success, the error's description for a failure.
    func open(_ path: String) throws -> [String?] {
        let request = Data((path + "\n").utf8)
        for handle in requests {
            try handle.write(contentsOf: request)
        }
        return try replies.indices.map { index in
            guard let line = replies[index].nextReply() else {
                throw WorkerExited(index: index, status: processes[index].terminationStatus)
            }
            return line == "ok" ? nil : line
        }
    }

    /// Closes the workers' input and waits for them to exit; returns their
    /// exit statuses.
    func finish() throws -> [Int32] {
        for handle in requests {
            try handle.close()
        }
        return processes.map { process in
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// A worker closed its output before answering.
    struct WorkerExited: Error, CustomStringConvertible {
        var index: Int
        var status: Int32
        var description: String { "worker \(index) exited without answering" }
    }

    /// Runs `body` on a new thread and suspends until it returns, so that
    /// blocking on pipes never holds one of the cooperative pool's threads
    /// (two on a 2-core machine).
    static func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.start()
        }
    }
}

/// Reads a worker's standard output line by line and keeps only its
/// answers (what follows ``ConcurrentOpenWorker/replyPrefix`` on a line).
private struct ReplyReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next answer without its prefix, or `nil` at the end of the stream.
    mutating func nextReply() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if let prefix = line.range(of: ConcurrentOpenWorker.replyPrefix) {
                    return String(line[prefix.upperBound...])
                }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(handle.fileDescriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR {
                continue
            }
            guard count > 0 else {
                return nil
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
