import ArgumentParser

/// The `txkit-torture` executable: the crash torture of the tools package
/// (Guides/Reliability.md), never shipped.
///
/// `txkit-torture [options]` runs ``TortureCommand``; the writer and reader
/// children it starts are hidden subcommands of this same executable, so
/// that a round needs nothing but the one binary. The root command has no
/// option of its own: every option belongs to exactly one subcommand.
@main
struct TxkitTorture: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "txkit-torture",
        abstract: "Kill writer processes at random moments and check that no acknowledged transaction is lost.",
        subcommands: [
            TortureCommand.self,
            TortureWriterCommand.self,
            TortureConcurrentWriterCommand.self,
            TortureReaderCommand.self,
            PostgresTortureCommand.self,
        ],
        defaultSubcommand: TortureCommand.self
    )
}
