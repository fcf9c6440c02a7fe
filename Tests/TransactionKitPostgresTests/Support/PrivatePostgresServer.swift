#if Postgres
import Foundation
import Testing

/// Scripts/postgres-control.sh, exported by Scripts/with-postgres.sh as
/// `TXKIT_POSTGRES_CONTROL`.
let postgresControl: String? = ProcessInfo.processInfo.environment["TXKIT_POSTGRES_CONTROL"]

/// A PostgreSQL server of one test's own, which the test may kill and
/// restart without disturbing the tests beside it.
struct PrivatePostgresServer {
    let name: String

    init(name: String) throws {
        _ = try #require(postgresControl)
        self.name = name
    }

    /// Creates the server the first time, starts it, and returns its URL.
    func start() throws -> String {
        try control("private-start", name).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server at once, without a checkpoint, as a crash would.
    func stop() throws {
        _ = try control("private-stop", name)
    }

    /// Runs postgres-control.sh and returns what it printed. With
    /// posix_spawn and waitpid, not Foundation's `Process`, whose
    /// `waitUntilExit` was seen never to return here after the script had
    /// exited (its server keeps running in the background).
    private func control(_ arguments: String...) throws -> String {
        let script = try #require(postgresControl)
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
        try #require(spawned == 0, "posix_spawn \(script) failed: \(spawned)")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        try #require(status == 0, "postgres-control.sh \(arguments) failed (wait status \(status))")
        return try String(contentsOfFile: outputPath, encoding: .utf8)
    }
}
#endif
