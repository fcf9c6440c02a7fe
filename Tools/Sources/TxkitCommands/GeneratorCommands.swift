#if Txkit
import ArgumentParser

/// The generator's subcommands, in the order `txkit --help` lists them.
///
/// The lean `txkit-generator` executable (the one the command plugin runs)
/// offers exactly these; Tools/'s `txkit` adds the demo. A new generator
/// command is added here, once, for both.
public enum GeneratorCommands {
    /// `init`, `inventory`, `shim` and `mock`.
    public static let all: [any ParsableCommand.Type] = [
        InitCommand.self,
        InventoryCommand.self,
        ShimCommand.self,
        MockCommand.self,
    ]
}
#endif
