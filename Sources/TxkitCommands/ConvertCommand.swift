#if Txkit
import ArgumentParser
import Foundation
import TxkitGenerator

/// `txkit convert`: the Good Way for one legacy finder, in one command.
/// Rewrites the finder to take TransactionKit transactions, declares its
/// protocol and mock, rewrites its callers, and retires the shims of its
/// consumers.
package struct ConvertCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Turn a legacy finder into a Good-Way finder, and rewrite its callers.",
        discussion: """
            LEGACY's members that take a legacy transaction take DBReadTransaction or \
            DBWriteTransaction instead (same position, unlabeled, `throws`); each body first \
            rebuilds the legacy transaction under its old name through txkit.json's bridge, \
            so the SQL stays as it is. Read or write is decided as for shims (writeMembers / \
            readMembers, the transaction type, the body, the members it calls, the callers' \
            blocks, the verb). A protocol (--protocol; by default LEGACY's name with Finder \
            made Finding, else LEGACYFinding) declares the members \
            callers use, LEGACY conforms to it, and its mock is written as `txkit mock` writes \
            it.

            Consumers on a shim of LEGACY switch to the protocol (C.Shims.LEGACY), the finder \
            (C.Wrappers.LEGACY) and the mock (C.Mocks.LEGACY); the shim, wrapper and mock of \
            those pairs are deleted and the namespaces regenerated. Calls that pass a legacy \
            transaction pass the TransactionKit transaction it was bridged from, or \
            txkit.json's reverseBridge; any other place is listed with file:line and the \
            reason, and --apply then refuses.

            Without --apply it prints the plan, a diff per file. --apply writes all or \
            nothing (every file parsed again first); --verify then runs `swift build` in \
            --root (flags after `--`, such as --build-tests) and restores every file when the \
            build fails.
            """
    )

    @Option(name: .long, help: "The legacy finder to convert.")
    var legacy: String

    @Option(name: .customLong("protocol"), help: "The protocol's name (default: LEGACY's name with Finder → Finding, or + Finding).")
    var protocolName: String?

    @Option(name: .long, help: ArgumentHelp(
        "keep: static members stay static (the conformance forwards to them); instance: they become instance members, reached through LEGACY.shared.",
        valueName: "keep|instance"))
    var statics: String = "keep"

    @Flag(name: .long, help: "Write the conversion (all files or none).")
    var apply = false

    @Flag(name: .long, help: ArgumentHelp(
        "With --apply: run `swift build` in --root afterwards, and restore every file if it fails.",
        discussion: "Arguments after `--` go to swift build: --verify -- --build-tests"))
    var verify = false

    @Argument(parsing: .postTerminator, help: ArgumentHelp(
        "With --verify: flags for swift build, after `--`.", valueName: "swift-build-flags"))
    var buildArguments: [String] = []

    @OptionGroup var options: GeneratorOptions

    /// Refuses flags that do not go together.
    package func validate() throws {
        if LegacyConversion.Statics(rawValue: statics) == nil {
            throw ValidationError("--statics is keep or instance, not \(statics).")
        }
        if verify && !apply {
            throw ValidationError("--verify builds the package after --apply: pass --apply too.")
        }
        if !buildArguments.isEmpty && !verify {
            throw ValidationError("Flags after `--` go to swift build with --verify: pass --apply --verify.")
        }
    }

    /// Reads nothing: ArgumentParser fills the options.
    package init() {}

    /// Plans the conversion and prints it; with `--apply`, writes it (and
    /// builds it with `--verify`).
    package func run() throws {
        defer { options.reportTimings() }
        let generator = try options.generator(includingTests: true)
        let conversion = try generator.convert(
            legacy: legacy, protocolName: protocolName, statics: LegacyConversion.Statics(rawValue: statics) ?? .keep)
        printSummary(conversion)
        guard apply else {
            print("")
            print(conversion.diff)
            printBlockers(conversion)
            return
        }
        let changes = try generator.changes(applying: conversion)
        let build = verify ? PackageBuild(root: options.root, arguments: buildArguments) : nil
        let deleted = Set(conversion.deletions)
        let written = try options.stageTimings.measure(.write) {
            try changes.write(verifyingWith: build) { line in
                let path = line.hasPrefix("wrote ") ? String(line.dropFirst("wrote ".count)) : ""
                print(deleted.contains(path) ? "deleted \(path)" : line)
            }
        }
        print("\(written.count) files written or deleted; \(conversion.changedLines) lines changed")
    }

    private func printSummary(_ conversion: LegacyConversion) {
        print("txkit convert \(conversion.legacy): protocol \(conversion.protocolName), mock \(conversion.mockName)")
        for member in conversion.members {
            let marker = member.isInProtocol ? "" : " (not in the protocol: no caller uses it)"
            print("  \(member.name) takes \(member.transaction): \(member.decision)\(marker)")
        }
        if !conversion.retiredPairs.isEmpty {
            print("  retires the shims of \(conversion.retiredPairs.joined(separator: ", "))")
        }
        print("  \(conversion.edits.count) files edited, \(conversion.files.count) written, "
            + "\(conversion.deletions.count) deleted; \(conversion.changedLines) lines changed")
    }

    private func printBlockers(_ conversion: LegacyConversion) {
        guard !conversion.blockers.isEmpty else { return }
        print("\n--apply would refuse: \(conversion.blockers.count) place"
            + (conversion.blockers.count == 1 ? "" : "s") + " for a person:")
        for blocker in conversion.blockers {
            print("  \(blocker)")
        }
    }
}
#endif
