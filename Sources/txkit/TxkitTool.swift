#if Txkit
import ArgumentParser
import TxkitCommands

/// `txkit init|inventory|shim|mock|convert`, on swift-syntax,
/// swift-argument-parser and Foundation only. The command plugin runs it;
/// `swift build --traits Txkit --product txkit` builds it as a binary.
/// Plain `txkit` prints this help.
@main
struct TxkitTool: ParsableCommand {
    static let configuration = GeneratorCommands.rootConfiguration(
        abstract: "TransactionKit's generator: shims, wrappers and mocks for legacy finders, their conversion to the Good Way, and the migration's inventory.",
        discussion: "Start with `txkit init`, which writes txkit.json (Guides/Configuration.md).")
}
#else
import Foundation

/// Without the `Txkit` trait the generator is not built: this says how to
/// enable it.
@main
enum TxkitTool {
    static func main() {
        let message = """
            error: txkit was built without TransactionKit's `Txkit` trait. Enable it where your \
            Package.swift depends on TransactionKit:
                .package(url: "…", from: "…", traits: ["Txkit"])
            (from this repository: swift build --traits Txkit --product txkit)

            """
        FileHandle.standardError.write(Data(message.utf8))
        exit(1)
    }
}
#endif
