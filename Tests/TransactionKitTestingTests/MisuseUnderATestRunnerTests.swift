import Foundation
import Testing
import TransactionKitTestSupport

/// Under a test runner, a programmer error fails the test that made it, at
/// its call site, and every other test still runs: proved on a real test
/// package (`Tests/Fixtures/MisuseUnderTest`) built and run with
/// `swift test` in a subprocess, under Swift Testing and XCTest.
@Suite("Misuse under a test runner")
struct MisuseUnderATestRunnerTests {
    /// The fixture package, and the scratch path that keeps its build
    /// between runs (ignored by git, like every `.build-*` folder).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = root.appendingPathComponent("Tests/Fixtures/MisuseUnderTest")
    static let scratch = root.appendingPathComponent(".build-fixtures/misuse")

    /// The misuses the fixture makes: its test name, and the marker of the
    /// line where the mistake is.
    static let mistakes = [
        ("escaped", "MISUSE: escaped"),
        ("nested", "MISUSE: nested"),
        ("bridge", "MISUSE: bridge"),
        ("unimplemented", "MISUSE: unimplemented"),
        ("precondition", "MISUSE: precondition"),
        ("savepoint", "MISUSE: savepoint"),
    ]

    @Test func eachMisuseFailsItsOwnTestAndTheRunReachesBothSummaries() async throws {
        let (status, output) = try await Self.runFixture()
        let lines = try Self.markedLines()

        // The end of the fixture's output, shown with any failed expectation.
        let tail = Comment(rawValue: "swift test on the fixture ended with:\n" + String(output.suffix(4_000)))
        #expect(output.contains("Test run with 8 tests"), tail)
        #expect(status != 0, "the fixture's failing tests make swift test fail")
        #expect(!output.contains("Fatal error"), "no misuse stopped the process")
        #expect(!output.contains("unexpected signal"))

        // Swift Testing: every misuse test failed at its call site, the
        // others passed, and the summary counts all eight.
        for (name, marker) in Self.mistakes {
            let line = try #require(lines[marker])
            #expect(output.contains("✘ Test \(name)() recorded an issue at Mistakes.swift:\(line):"), "\(name)")
        }
        #expect(output.contains("✔ Test passesBefore() passed"))
        #expect(output.contains("✔ Test passesAfter() passed"))
        #expect(output.contains("✘ Test run with 8 tests in 1 suite failed"))

        // XCTest: the same, with the call site at the start of each failure.
        for (name, marker) in Self.mistakes {
            let line = try #require(lines[marker])
            let testCase = "XCTestMistakes.test\(name.prefix(1).uppercased() + name.dropFirst())"
            #expect(output.contains("Test Case '\(testCase)' failed"), "\(testCase)")
            #expect(output.contains("\(testCase) : failed - ") && output.contains("Mistakes.swift:\(line)"), "\(testCase)")
        }
        #expect(output.contains("Test Case 'XCTestMistakes.testPassesBefore' passed"))
        #expect(output.contains("Test Case 'XCTestMistakes.testPassesAfter' passed"))
        #expect(output.contains("Executed 8 tests, with"))
    }

    /// Runs `swift test` on the fixture; returns its exit status and its
    /// standard output and error, interleaved. It waits without blocking a
    /// thread: a first run builds the fixture for a minute or more, and a
    /// blocked thread of the cooperative pool (two threads on a 2-core
    /// machine) would starve the async tests running meanwhile.
    static func runFixture() async throws -> (Int32, String) {
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("misuse-fixture-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        // SwiftPM keeps the build plan of a path dependency (this package)
        // in the scratch folder and does not notice source files added to it
        // since (after a pull, or a new type): drop the plan so that it is
        // made again; the compiled modules stay and rebuild incrementally.
        try? FileManager.default.removeItem(at: scratch.appendingPathComponent("debug.yaml"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "test", "--package-path", fixture.path, "--scratch-path", scratch.path]
        process.standardOutput = handle
        process.standardError = handle
        let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { process in continuation.resume(returning: process.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return (status, try String(contentsOf: log, encoding: .utf8))
    }

    /// The line of each `// MISUSE:` marker in the fixture's Mistakes.swift.
    static func markedLines() throws -> [String: Int] {
        let source = try String(
            contentsOf: fixture.appendingPathComponent("Tests/MisuseUnderTestTests/Mistakes.swift"), encoding: .utf8)
        var lines: [String: Int] = [:]
        for (index, text) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let range = text.range(of: "// MISUSE: ") {
                lines["MISUSE: " + text[range.upperBound...].trimmingCharacters(in: .whitespaces)] = index + 1
            }
        }
        return lines
    }
}
