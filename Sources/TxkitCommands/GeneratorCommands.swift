#if Txkit
import ArgumentParser

/// The generator's subcommands, in the order `txkit --help` lists them.
///
/// The `txkit` executable (the one the command plugin runs) offers exactly
/// these; a new generator command is added here, once.
package enum GeneratorCommands {
    /// `init`, `inventory`, `shim`, `mock`, `convert` and `migrate`.
    package static let all: [any ParsableCommand.Type] = [
        InitCommand.self,
        InventoryCommand.self,
        ShimCommand.self,
        MockCommand.self,
        ConvertCommand.self,
        MigrateCommand.self,
    ]

    /// The configuration of the `txkit` root command: no default
    /// subcommand, so that plain `txkit` prints its help instead of doing
    /// something.
    package static func rootConfiguration(abstract: String, discussion: String) -> CommandConfiguration {
        CommandConfiguration(commandName: "txkit", abstract: abstract, discussion: discussion, subcommands: all)
    }
}
#endif
