import ArgumentParser
import TxkitCommands

/// The `txkit` command-line tool of the tools package: the demo (the
/// README's main job, `txkit demo`) and the generator's commands, the same
/// ones the lean `txkit-generator` and the command plugin offer. Plain
/// `txkit` prints this help.
@main
struct TxKit: AsyncParsableCommand {
    static let configuration = GeneratorCommands.rootConfiguration(
        abstract: "TransactionKit's command-line tool: the demo, and the generator (init, inventory, shim, mock, convert).",
        discussion: "Run the demo with `txkit demo`; start a migration with `txkit init` (Guides/Configuration.md).",
        extra: [DemoCommand.self])
}
