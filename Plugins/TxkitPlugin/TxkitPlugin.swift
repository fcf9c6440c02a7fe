import Foundation
import PackagePlugin

/// `swift package txkit init|inventory|shim|mock|convert …`: runs the generator
/// (`txkit`, built with TransactionKit's `Txkit` trait) on this
/// package, with the same subcommands and flags as the `txkit` binary.
///
/// It passes `--root` (the package's folder) and, when txkit.json names no
/// `sources`, `--sources` with the folders of the package's Swift targets
/// (test targets aside). Reading commands (`inventory`, `--check`,
/// `--dry-run`) need no permission; commands that write (`init`, `shim`,
/// `mock`, `--apply`) need `--allow-writing-to-package-directory`, and
/// refuse before running when SwiftPM's sandbox (macOS) does not grant it.
/// The plugin declares no permission so that reading commands run without
/// one: a declared permission is asked for on every run.
@main
struct TxkitPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let root = context.package.directoryURL
        let folders = context.package.targets
            .compactMap { $0 as? SwiftSourceModuleTarget }
            .filter { $0.kind != .test }
            .map { Self.relativePath($0.directoryURL, to: root) }
        try Self.run(
            tool: context.tool(named: "txkit").url, root: root, targetFolders: folders,
            arguments: arguments, workFolder: context.pluginWorkDirectoryURL)
    }

    /// Runs the generator with the arguments the user typed, completed with
    /// the root and the source folders; throws when it fails.
    /// `--verify` builds in `workFolder`/verify-build.
    static func run(tool: URL, root: URL, targetFolders: [String], arguments: [String], workFolder: URL) throws {
        let invocation = TxkitInvocation(
            arguments: arguments, root: root.path, targetFolders: targetFolders,
            verifyScratchPath: workFolder.appendingPathComponent("verify-build").path)
        if invocation.writes {
            try requireWriteAccess(root, arguments: arguments)
        }
        let process = Process()
        process.executableURL = tool
        process.arguments = invocation.toolArguments
        process.currentDirectoryURL = root
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw TxkitPluginError(
                "txkit \(arguments.first ?? "") exited with status \(process.terminationStatus)")
        }
    }

    /// Fails early, with the command to type, when the package folder is
    /// not writable (SwiftPM's sandbox without the flag).
    static func requireWriteAccess(_ root: URL, arguments: [String]) throws {
        let probe = root.appendingPathComponent(".txkit-write-check-\(ProcessInfo.processInfo.processIdentifier)")
        if FileManager.default.createFile(atPath: probe.path, contents: Data()) {
            try? FileManager.default.removeItem(at: probe)
            return
        }
        throw TxkitPluginError(
            "txkit \(arguments.first ?? "") writes to the package; allow it with\n"
                + "    swift package --allow-writing-to-package-directory txkit \(arguments.joined(separator: " "))\n"
                + "(--check and --dry-run write nothing and need no permission)")
    }

    static func relativePath(_ url: URL, to root: URL) -> String {
        let base = root.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(base) else { return path }
        let relative = String(path.dropFirst(base.count)).drop { $0 == "/" }
        return relative.isEmpty ? "." : String(relative)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same commands on an Xcode project (Xcode's File ▸ Packages, or the
/// project's context menu): the root is the project's folder, the source
/// folders those of its targets' Swift files.
extension TxkitPlugin: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
        let root = context.xcodeProject.directoryURL
        var folders: [String] = []
        for target in context.xcodeProject.targets {
            let swiftFiles = target.inputFiles.filter { $0.type == .source && $0.url.pathExtension == "swift" }
            guard let common = Self.commonFolder(swiftFiles.map { $0.url.deletingLastPathComponent() }) else { continue }
            let relative = Self.relativePath(common, to: root)
            if !folders.contains(relative) { folders.append(relative) }
        }
        try Self.run(
            tool: context.tool(named: "txkit").url, root: root, targetFolders: folders,
            arguments: arguments, workFolder: context.pluginWorkDirectoryURL)
    }

    /// The deepest folder that holds all of `folders`.
    static func commonFolder(_ folders: [URL]) -> URL? {
        guard var common = folders.first?.standardizedFileURL.pathComponents else { return nil }
        for folder in folders.dropFirst() {
            let components = folder.standardizedFileURL.pathComponents
            common = Array(zip(common, components).prefix { $0 == $1 }.map(\.0))
        }
        return common.isEmpty ? nil : URL(fileURLWithPath: NSString.path(withComponents: common))
    }
}
#endif
