#if Txkit
import ArgumentParser
import Foundation
import TxkitGenerator

/// Options shared by `txkit shim`, `mock` and `inventory`.
struct GeneratorOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The project folder: it holds txkit.json, and output paths are relative to it.", valueName: "DIR"))
    var root = "."

    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp(
        "Files or folders to read instead of txkit.json's sources (relative to --root).", valueName: "PATH"))
    var sources: [String] = []

    /// The configuration and the parsed sources.
    ///
    /// - Parameter includingTests: Whether to read the mocks' test target
    ///   too (`txkit convert`).
    /// - Throws: ``GeneratorError/missingConfiguration(path:)`` when `--root`
    ///   has no txkit.json (`txkit init` writes one), or why the file is
    ///   not valid.
    func generator(includingTests: Bool = false) throws -> Generator {
        let configuration = try GeneratorConfiguration.loadRequired(from: root)
        return try Generator(
            root: root, configuration: configuration, sources: sources.isEmpty ? nil : sources,
            includingTests: includingTests)
    }
}

/// `--check`, `--dry-run` or writing, shared by the commands that generate files.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Write nothing; exit with status 1 and a diff when a file is missing or differs.")
    var check = false

    @Flag(name: .long, help: "Write nothing; print what would be written (with --apply: every file it would change).")
    var dryRun = false

    func validate() throws {
        if check && dryRun {
            throw ValidationError("--check and --dry-run both write nothing: pass one.")
        }
    }

    /// Writes, checks or lists `files` under `root`, reporting on standard
    /// output.
    func apply(_ files: [GeneratedFile], root: String) throws {
        let writer = GeneratedFileWriter(root: root)
        if check {
            let differences = try writer.check(files)
            for difference in differences {
                print(difference.description)
            }
            if !differences.isEmpty {
                throw GeneratorCheckFailure(count: differences.count)
            }
            print("\(files.count) generated files are current")
        } else if dryRun {
            // Every check of a real write (markers, parsing), then the diffs.
            _ = try FileChangeSet(root: root, files: files, edits: [])
            let differences = try writer.check(files)
            for difference in differences {
                print(difference.description)
            }
            print("--dry-run: \(differences.count) of \(files.count) files would be written; nothing was written")
        } else {
            let written = try writer.write(files)
            for path in written {
                print("wrote \(path)")
            }
            print("\(written.count) of \(files.count) files written (the others were current)")
        }
    }
}

/// `--check` found files to regenerate.
struct GeneratorCheckFailure: Error, CustomStringConvertible {
    let count: Int

    var description: String {
        "\(count) generated file\(count == 1 ? "" : "s") out of date: run the command without --check"
    }
}
#endif
