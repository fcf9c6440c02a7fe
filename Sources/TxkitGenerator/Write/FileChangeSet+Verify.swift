#if Txkit
import Foundation

extension FileChangeSet {
    /// Writes the changes, then, with `build`, builds the package; when the
    /// build fails, restores every file as it was and throws.
    ///
    /// - Parameter report: Told of each step (`wrote …`, the build command).
    /// - Returns: The paths written.
    /// - Throws: ``GeneratorError/buildFailed(command:errors:restored:)``
    ///   with the compiler's first errors, after restoring; or what
    ///   ``write()`` throws.
    @discardableResult
    package func write(verifyingWith build: PackageBuild?, report: (String) -> Void = { _ in }) throws -> [String] {
        let restorePoint = try write()
        for path in restorePoint.writtenPaths {
            report("wrote \(path)")
        }
        guard let build else { return restorePoint.writtenPaths }
        report("verifying: \(build.command) (in \(build.root))")
        let outcome: PackageBuild.Outcome
        do {
            outcome = try build.run()
        } catch {
            try restorePoint.restore()
            throw error
        }
        guard outcome.succeeded else {
            let restored = try restorePoint.restore()
            throw GeneratorError.buildFailed(command: build.command, errors: outcome.failureSummary(), restored: restored)
        }
        report("\(build.command) succeeded")
        return restorePoint.writtenPaths
    }
}
#endif
