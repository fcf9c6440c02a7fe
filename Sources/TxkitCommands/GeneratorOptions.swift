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

    @Flag(name: .long, help: "Print to standard error what each stage cost: parse, index, scan, plan, render, rewrite, migrate, check, write.")
    var timings = false

    /// Where the generators these options build record each stage's cost.
    let stageTimings = StageTimings()

    private enum CodingKeys: String, CodingKey {
        case root, sources, timings
    }

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
            includingTests: includingTests, timings: stageTimings)
    }

    /// With `--timings`, prints what each stage cost to standard error
    /// (nothing without it). A command calls it once, as it ends, whether
    /// it succeeded or not.
    func reportTimings() {
        guard timings else { return }
        FileHandle.standardError.write(Data(stageTimings.report.utf8))
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
    /// output; the time goes to `timings`' `check` or `write` stage.
    func apply(_ files: [GeneratedFile], root: String, timings: StageTimings) throws {
        let writer = GeneratedFileWriter(root: root)
        if check {
            let differences = try timings.measure(.check) { try writer.check(files) }
            for difference in differences {
                print(difference.description)
            }
            if !differences.isEmpty {
                throw GeneratorCheckFailure(count: differences.count)
            }
            print("\(files.count) generated files are current")
        } else if dryRun {
            // Every check of a real write (markers, parsing), then the diffs.
            let differences = try timings.measure(.check) {
                _ = try FileChangeSet(root: root, files: files, edits: [])
                return try writer.check(files)
            }
            for difference in differences {
                print(difference.description)
            }
            print("--dry-run: \(differences.count) of \(files.count) files would be written; nothing was written")
        } else {
            let written = try timings.measure(.write) { try writer.write(files) }
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
