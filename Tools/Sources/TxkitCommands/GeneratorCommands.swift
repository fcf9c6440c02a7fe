#if Txkit
import ArgumentParser

/// The generator's subcommands, in the order `txkit --help` lists them.
///
/// The lean `txkit-generator` executable (the one the command plugin runs)
/// offers exactly these; Tools/'s `txkit` adds the demo. A new generator
/// command is added here, once, for both.
public enum GeneratorCommands {
    /// `init`, `inventory`, `shim`, `mock` and `convert`.
    public static let all: [any ParsableCommand.Type] = [
        InitCommand.self,
        InventoryCommand.self,
        ShimCommand.self,
        MockCommand.self,
        ConvertCommand.self,
    ]

    /// The configuration of a `txkit` root command: `extra` commands (the
    /// demo, in Tools/) before the generator's, and no default subcommand,
    /// so that plain `txkit` prints its help instead of doing something.
    public static func rootConfiguration(
        abstract: String, discussion: String, extra: [any ParsableCommand.Type] = []
    ) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "txkit", abstract: abstract, discussion: discussion, subcommands: extra + all)
    }
}
#endif
