import ArgumentParser

/// The `txkit` command-line tool.
@main
struct TxKit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "txkit",
        abstract: "TransactionKit's command-line tool.",
        subcommands: [
            DemoCommand.self,
            ShimCommand.self,
            MockCommand.self,
            InventoryCommand.self,
            ConvertCommand.self,
        ],
        defaultSubcommand: DemoCommand.self
    )
}
