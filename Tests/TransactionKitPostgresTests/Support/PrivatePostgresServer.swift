#if Postgres
import Foundation
import Testing

/// Scripts/postgres-control.sh, exported by Scripts/with-postgres.sh as
/// `TXKIT_POSTGRES_CONTROL`.
let postgresControl: String? = ProcessInfo.processInfo.environment["TXKIT_POSTGRES_CONTROL"]

/// A PostgreSQL server of one test's own, which the test may kill and
/// restart without disturbing the tests beside it.
///
/// `start()` and `stop()` wait for the control script (a first start runs
/// `initdb`: seconds under load) on a thread of their own, never on one of
/// the cooperative pool's, which has one thread per core: every other test
/// of the process needs those for its timers, postgres-nio's pools and the
/// resumption of each `await`.
struct PrivatePostgresServer {
    /// Why the control script did not do its job.
    struct ControlFailure: Error, CustomStringConvertible {
        let description: String
    }

    let name: String

    init(name: String) throws {
        _ = try #require(postgresControl)
        self.name = name
    }

    /// Creates the server the first time, starts it, and returns its URL.
    func start() async throws -> String {
        try await control("private-start", name).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server at once, without a checkpoint, as a crash would.
    func stop() async throws {
        _ = try await control("private-stop", name)
    }

    /// Runs postgres-control.sh on a new thread and returns what it
    /// printed.
    private func control(_ arguments: String...) async throws -> String {
        let script = try #require(postgresControl)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.run(script, arguments) })
            }
        }
    }

    /// Runs `script` and waits for it, blocking the calling thread. With
    /// posix_spawn and waitpid, not Foundation's `Process`, whose
    /// `waitUntilExit` may not return after the script has exited while
    /// the server it started keeps running in the background.
    private static func run(_ script: String, _ arguments: [String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("postgres-control-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([script] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, script, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw ControlFailure(description: "posix_spawn \(script) failed: \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            throw ControlFailure(description: "postgres-control.sh \(arguments) failed (wait status \(status))")
        }
        return try String(contentsOfFile: outputPath, encoding: .utf8)
    }
}
#endif
