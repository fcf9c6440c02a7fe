#if Txkit
import Foundation

/// `swift build` in a package, for `txkit shim --apply --verify`: after
/// the edit, the package must still build, or every file is restored.
///
/// It runs in the package folder with the user's own flags
/// (`--build-tests`, `-Xswiftc -warnings-as-errors`…), and reports the
/// compiler's first errors when it fails.
package struct PackageBuild: Sendable {
    /// The package folder (`--root`).
    package var root: String
    /// Passed after `swift build`.
    package var arguments: [String]

    /// A build of the package in `root`, with `arguments` after `swift build`.
    package init(root: String, arguments: [String] = []) {
        self.root = root
        self.arguments = arguments
    }

    /// The command as a user would type it.
    package var command: String {
        (["swift", "build"] + arguments).joined(separator: " ")
    }

    /// What a build printed, and whether it succeeded.
    package struct Outcome: Sendable {
        /// The exit status of `swift build`.
        package var status: Int32
        /// Standard output and error, interleaved.
        package var output: String

        /// An outcome, as a build reported it.
        package init(status: Int32, output: String) {
            self.status = status
            self.output = output
        }

        /// Whether the build succeeded (exit status 0).
        package var succeeded: Bool { status == 0 }

        /// The first `error:` lines, in order, without repeats (and
        /// without the source excerpts under them, which repeat them).
        package func firstErrors(limit: Int = 20) -> [String] {
            var errors: [String] = []
            for line in output.split(separator: "\n", omittingEmptySubsequences: true)
            where line.contains("error:") && !errors.contains(String(line)) {
                let start = line.drop { $0 == " " }
                if start.hasPrefix("|") || start.hasPrefix("`-") { continue }
                errors.append(String(line))
                if errors.count == limit { break }
            }
            return errors
        }

        /// The first errors, or the output's last lines when the build
        /// failed without an `error:` line (a crash, a signal).
        package func failureSummary(limit: Int = 20) -> [String] {
            let errors = firstErrors(limit: limit)
            if !errors.isEmpty { return errors }
            return output.split(separator: "\n", omittingEmptySubsequences: true).suffix(limit).map(String.init)
        }
    }

    /// Runs the build and waits for it.
    ///
    /// - Throws: ``GeneratorError/unreadablePath(_:reason:)`` when `swift`
    ///   cannot be started.
    package func run() throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            throw GeneratorError.unreadablePath(root, reason: "cannot run `\(command)`: \(error.localizedDescription)")
        }
        // Read to the end before waiting: a full pipe would block the build.
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
#endif
