import Foundation

/// The generator's command line for what the user typed after
/// `swift package txkit`: the same subcommand and flags, plus `--root`
/// and, where txkit.json does not name them, the targets' folders as
/// `--sources`.
struct TxkitInvocation {
    let toolArguments: [String]
    /// Whether the command writes to the package (and so needs
    /// `--allow-writing-to-package-directory` in SwiftPM's sandbox).
    let writes: Bool

    /// - Parameter verifyScratchPath: Where `--verify`'s `swift build`
    ///   builds (the plugin's work folder): in the package's own `.build`
    ///   it would wait forever for the lock that the `swift package`
    ///   running this plugin holds.
    init(arguments: [String], root: String, targetFolders: [String], verifyScratchPath: String? = nil) {
        let subcommand = arguments.first
        let flags = Set(arguments)
        let asksForHelp = subcommand == nil || subcommand == "help"
            || flags.contains("--help") || flags.contains("-h") || flags.contains("--version")
        let readOnly = flags.contains("--check") || flags.contains("--dry-run")
        // `convert` prints its plan and writes only with `--apply`.
        let writingCommand = subcommand == "convert"
            ? flags.contains("--apply") : ["init", "shim", "mock", "migrate"].contains(subcommand ?? "")
        writes = !asksForHelp && !readOnly && writingCommand
        guard let subcommand, !asksForHelp else {
            toolArguments = arguments
            return
        }
        var added: [String] = []
        if !flags.contains("--root") {
            added += ["--root", root]
        }
        let configuration = (root as NSString).appendingPathComponent("txkit.json")
        let namesSources = Self.configurationNamesSources(configuration)
        // `init` writes the targets' folders into txkit.json; the other
        // commands read them from there, or get them here when it has none.
        if !flags.contains("--sources") && !targetFolders.isEmpty && (subcommand == "init" || !namesSources) {
            added += ["--sources"] + targetFolders
        }
        var tool = [subcommand] + added + arguments.dropFirst()
        if flags.contains("--verify"), let verifyScratchPath, !flags.contains("--scratch-path") {
            if !flags.contains("--") { tool.append("--") }
            tool += ["--scratch-path", verifyScratchPath]
        }
        toolArguments = tool
    }

    /// Whether the txkit.json at `path` has a `sources` key (false when it
    /// does not exist or does not parse: the generator reports that).
    static func configurationNamesSources(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return false }
        return object["sources"] != nil
    }
}
