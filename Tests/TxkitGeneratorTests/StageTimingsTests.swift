#if Txkit
import Foundation
import Testing
import TxkitCommands
@testable import TxkitGenerator
import TxkitGeneratorTestSupport

/// `--timings`: the commands print each stage's cost to standard error,
/// and nothing there without the flag.
@Suite("--timings", .serialized)
struct StageTimingsTests {
    /// What `body` writes to standard error (file descriptor 2).
    static func standardError(of body: () throws -> Void) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-stderr-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = open(path, O_WRONLY)
        let saved = dup(2)
        fflush(nil)
        dup2(file, 2)
        do {
            defer {
                fflush(nil)
                dup2(saved, 2)
                close(saved)
                close(file)
            }
            try body()
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The stage names of the report in `printed`, in order: the lines
    /// after `txkit timings:` shaped `  name   0.123 s …`. Standard error is
    /// the process', so other tests running meanwhile (Swift Testing's own
    /// progress lines) may be interleaved; they are skipped.
    static func stages(in printed: String) -> [String] {
        let lines = printed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.firstIndex(of: "txkit timings:") else { return [] }
        return lines[(header + 1)...].compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard line.hasPrefix("  "), words.count >= 3, words[1].contains("."), Double(words[1]) != nil,
                  words[2] == "s"
            else { return nil }
            return words[0]
        }
    }

    @Test func inventoryPrintsEachStageWithTheFlag() throws {
        let folder = try GeneratorCommandTests.consumerCopy(withConfiguration: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let printed = try Self.standardError {
            try InventoryCommand.parse(["--root", folder, "--sources", "Sources", "--timings"]).run()
        }
        #expect(Self.stages(in: printed) == ["parse", "index", "scan", "total"])
    }

    @Test func shimCheckPrintsPlanRenderAndCheck() throws {
        let folder = try GeneratorCommandTests.consumerCopy(withConfiguration: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pair = ["--root", folder, "--sources", "Sources", "--consumer", "OrderManager", "--legacy", "LegacyOrderFinder"]
        try ShimCommand.parse(pair).run()
        let printed = try Self.standardError {
            try ShimCommand.parse(pair + ["--check", "--timings"]).run()
        }
        #expect(Self.stages(in: printed) == ["parse", "index", "plan", "render", "rewrite", "check", "total"])
    }

    @Test func initPrintsParseAndIndex() throws {
        let folder = try GeneratorCommandTests.consumerCopy(withConfiguration: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let printed = try Self.standardError {
            try InitCommand.parse(["--root", folder, "--dry-run", "--timings"]).run()
        }
        #expect(Self.stages(in: printed) == ["parse", "index", "total"])
    }

    @Test func withoutTheFlagNothingIsPrinted() throws {
        let folder = try GeneratorCommandTests.consumerCopy(withConfiguration: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let printed = try Self.standardError {
            try InventoryCommand.parse(["--root", folder, "--sources", "Sources"]).run()
            try ShimCommand.parse([
                "--root", folder, "--sources", "Sources", "--consumer", "OrderManager", "--legacy", "LegacyOrderFinder",
                "--dry-run",
            ]).run()
        }
        #expect(!printed.contains("txkit timings"))
    }

    @Test func aStageInsideAnotherIsCountedOnceAsItsOwn() {
        let timings = StageTimings()
        timings.measure(.scan) {
            timings.measure(.plan) { _ = usleep(1_000) }
        }
        // Parallel work: what runs inside is the parallel stage's.
        timings.measureInParallel(.render) {
            timings.measure(.check) {}
        }
        #expect(timings.seconds(of: .plan) > 0)
        #expect(timings.seconds(of: .check) == 0)
        let listed = timings.report.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(listed == ["txkit", "scan", "plan", "render", "total"])
    }
}
#endif
