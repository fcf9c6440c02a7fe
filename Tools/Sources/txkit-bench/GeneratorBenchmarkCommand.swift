import ArgumentParser
import Foundation
#if GeneratorBenchmark
import TxkitGenerator
#endif

#if GeneratorBenchmark

/// `txkit-bench generator`: the code generator on a synthetic corpus
/// (1,000 legacy types × 20 members, 1,000 consumers by default), wall
/// time and lines per second of each step as `txkit` runs it.
///
/// Steps, each from a cold start (sources read and parsed again):
/// - `inventory`: read and parse the corpus, classify every use
///   (`inventory_read`: read, parse and index; `inventory_scan`: the rest);
/// - `shim_all_pairs`: read and parse, then generate the shim, wrapper,
///   mock and namespaces of every consumer/legacy pair in memory (what
///   `txkit shim --consumer … --legacy …` does once per pair);
/// - `inventory_shims_one_run`: read and parse once, take the inventory,
///   then generate every pair from the same index (one `txkit` run);
/// - `write_files`: write those files (into an empty folder);
/// - `check_all`: read and parse the corpus and the generated shims and
///   wrappers (the sources, as in an app whose shims folder is in its
///   target), then regenerate every pair and compare with every generated
///   file, mocks included (`txkit shim --all --check`, CI); the mocks are
///   compared, not parsed: in an app they are in the test target, outside
///   `sources`; `check_read` (read, parse and index), `check_render`
///   (regenerate) and `check_compare` (read and compare) are its parts;
/// - `apply_all`: plan the `--apply` edit of every pair (not written);
/// - `convert_per_type`: `txkit convert --legacy …` planned (not written)
///   for the first `--convert-types` legacy types, each from a cold start,
///   with every pair's shims on disk; the time of one type;
/// - `inventory` of verbatim sources of public packages, GRDB's and
///   swift-syntax's when the build folder has them checked out (or the
///   folders `--real` names): lines per second beside the corpus'.
struct GeneratorBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generator",
        abstract: "Time txkit inventory, shim and --check on a synthetic corpus (build with -c release)."
    )

    @Option(help: "Legacy types (and consumers) in the corpus.")
    var types = 1_000

    @Option(help: "Members per legacy type.")
    var members = 20

    @Option(help: "Legacy types `txkit convert` is planned for, in the convert_per_type step.")
    var convertTypes = 5

    @Option(help: "Rounds; the report gives the median and range.")
    var rounds = 3

    @Option(help: ArgumentHelp(
        "Where to write the corpus (a tmpfs such as /dev/shm leaves the disk out of write_files).",
        valueName: "DIR"))
    var folder = FileManager.default.temporaryDirectory.path

    @Option(name: .customLong("real"), help: ArgumentHelp(
        "A folder of Swift sources to take the inventory of, `name=path` (repeatable; default: GRDB's and "
            + "swift-syntax's sources in .build/checkouts).", valueName: "NAME=DIR"))
    var realSources: [String] = []

    @Flag(help: "Skip the inventory of real sources.")
    var noReal = false

    func run() throws {
        #if DEBUG
        print("warning: a debug build; run `swift run -c release --package-path Tools --traits GeneratorBenchmark txkit-bench generator`")
        #endif
        let folder = (self.folder as NSString).appendingPathComponent("txkit-corpus-\(getpid())")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let corpus = GeneratorCorpus(typeCount: types, membersPerType: members)
        let corpusLines = try corpus.write(to: folder)
        let configuration = try GeneratorConfiguration.load(from: folder)
        print("corpus: \(types) legacy types × \(members) members (\(2 * types) files), \(types) consumers, "
            + "\(corpusLines) lines; \(rounds) rounds, cold start each; in \(self.folder)")

        let real = noReal ? [] : realSources.isEmpty
            ? RealSources.checkedOut(in: FileManager.default.currentDirectoryPath) : realSources.map(RealSources.parse)
        for sources in real {
            print("real sources: \(sources.name), \(sources.lines) lines in \(sources.path)")
        }

        var timings: [String: [Double]] = [:]
        var generatedLines = 0
        var pairCount = 0
        var fileCount = 0
        var uses = 0
        for _ in 0..<rounds {
            try? FileManager.default.removeItem(atPath: folder + "/Generated")

            var start = DispatchTime.now()
            let reader = try Generator(root: folder, configuration: configuration)
            let read = seconds(since: start)
            let inventory = reader.inventory()
            timings["inventory", default: []].append(seconds(since: start))
            timings["inventory_read", default: []].append(read)
            timings["inventory_scan", default: []].append(seconds(since: start) - read)
            uses = inventory.uses.count

            start = DispatchTime.now()
            let generator = try Generator(root: folder, configuration: configuration)
            let pairs = inventory.uses.map { (consumer: $0.consumer, legacy: $0.type) }
            let files = try generator.shim(pairs: pairs)
            timings["shim_all_pairs", default: []].append(seconds(since: start))

            // What one run that takes the inventory and then generates
            // every pair costs: one parse, one index.
            start = DispatchTime.now()
            let shared = try Generator(root: folder, configuration: configuration)
            _ = shared.inventory()
            _ = try shared.shim(pairs: pairs)
            timings["inventory_shims_one_run", default: []].append(seconds(since: start))

            start = DispatchTime.now()
            try GeneratedFileWriter(root: folder).write(files)
            timings["write_files", default: []].append(seconds(since: start))
            generatedLines = files.map { $0.contents.count { $0 == "\n" } }.reduce(0, +)
            pairCount = pairs.count
            fileCount = files.count

            start = DispatchTime.now()
            var checkConfiguration = configuration
            checkConfiguration.sources = ["Sources", "Generated/Shortcuts"]
            let checker = try Generator(root: folder, configuration: checkConfiguration)
            let checkRead = seconds(since: start)
            let checked = try checker.shim(pairs: checker.generatedPairs())
            let checkRender = seconds(since: start) - checkRead
            let differences = try GeneratedFileWriter(root: folder).check(checked)
            timings["check_all", default: []].append(seconds(since: start))
            timings["check_read", default: []].append(checkRead)
            timings["check_render", default: []].append(checkRender)
            timings["check_compare", default: []].append(seconds(since: start) - checkRead - checkRender)
            guard differences.isEmpty else {
                throw ValidationError("--check found \(differences.count) differences in freshly generated files, first:\n\(differences[0].description)")
            }

            start = DispatchTime.now()
            var edits = 0
            for (consumer, legacy) in pairs {
                edits += try generator.apply(consumer: consumer, legacy: legacy).count
            }
            timings["apply_all", default: []].append(seconds(since: start))
            guard edits == pairs.count else {
                throw ValidationError("--apply planned \(edits) edits for \(pairs.count) pairs")
            }

            let legacies = Array(inventory.legacyTypes.prefix(convertTypes))
            start = DispatchTime.now()
            for legacy in legacies {
                let conversion = try Generator(root: folder, configuration: checkConfiguration, includingTests: true)
                    .convert(legacy: legacy)
                guard conversion.changedLines > 0 else {
                    throw ValidationError("convert planned nothing for \(legacy)")
                }
            }
            timings["convert_per_type", default: []].append(seconds(since: start) / Double(max(legacies.count, 1)))

            for sources in real {
                let (read, scan) = try sources.inventory(root: folder, configuration: configuration)
                timings["inventory \(sources.name)", default: []].append(read + scan)
                timings["inventory_read \(sources.name)", default: []].append(read)
                timings["inventory_scan \(sources.name)", default: []].append(scan)
            }
        }

        print("uses found: \(uses) (\(pairCount) consumer/legacy pairs); generated: \(fileCount) files, \(generatedLines) lines")
        print(pad("step", 30) + pad("median", 10) + pad("min-max", 18) + pad("lines/s", 12) + "per pair")
        let perPair: Set = ["shim_all_pairs", "apply_all"]
        var rows = ["inventory", "inventory_read", "inventory_scan", "shim_all_pairs", "inventory_shims_one_run", "write_files", "check_all",
                    "check_read", "check_render", "check_compare", "apply_all", "convert_per_type"].map { (step: $0, lines: corpusLines) }
        for sources in real {
            rows += ["inventory", "inventory_read", "inventory_scan"].map { (step: "\($0) \(sources.name)", lines: sources.lines) }
        }
        for (step, lines) in rows {
            let values = timings[step]!.sorted()
            let median = values[values.count / 2]
            let range = String(format: "%.2f-%.2f s", values.first!, values.last!)
            let pair = perPair.contains(step) ? String(format: "%.2f ms", median * 1000 / Double(max(pairCount, 1))) : ""
            print(pad(step, 30) + pad(String(format: "%.2f s", median), 10) + pad(range, 18)
                + pad(String(format: "%.0f", Double(lines) / median), 12) + pair)
        }
        let shimmed = timings["inventory"]!.sorted()[rounds / 2] + timings["shim_all_pairs"]!.sorted()[rounds / 2]
        print(String(format: "inventory + shim of every pair: %.2f s (two cold starts); in one run: %.2f s", shimmed,
                     timings["inventory_shims_one_run"]!.sorted()[rounds / 2]))
    }

    private func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

#else

/// `txkit-bench generator` in a build without the package trait
/// `GeneratorBenchmark`, which links the code generator: it names the
/// command that builds it and fails.
struct GeneratorBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generator",
        abstract: "Time txkit (needs the GeneratorBenchmark trait: see Benchmarks/README.md)."
    )

    func run() throws {
        FileHandle.standardError.write(Data("""
            error: txkit-bench was built without the code generator; run
              swift run -c release --package-path Tools --traits GeneratorBenchmark txkit-bench generator

            """.utf8))
        throw ExitCode.failure
    }
}
#endif
