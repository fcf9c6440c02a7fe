#if Txkit
/// Why a `txkit` command stopped. Nothing is written when one of these is
/// thrown. Places in the sources that txkit will not generate or rewrite
/// are ``Refusal``s, listed by ``refused(_:_:)``.
package enum GeneratorError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A source file does not parse; `diagnostics` shows where.
    case unparsableSource(path: String, diagnostics: String)
    /// A path that cannot be read.
    case unreadablePath(String, reason: String)
    /// No declaration of this type in the sources.
    case typeNotFound(String, searched: [String])
    /// Types of this name are declared in several modules (source folders);
    /// `locations` lists them.
    case ambiguousType(String, locations: [SourceLocation])
    /// The consumer never uses the legacy type.
    case unusedType(consumer: String, legacy: String)
    /// `what` (`txkit mock cannot mock P`) is refused at one place or
    /// more, each with its reason and fix.
    case refused(_ what: String, [Refusal])
    /// A generated file that cannot be written.
    case unwritablePath(String, reason: String)
    /// `txkit.json` is not valid.
    case invalidConfiguration(String)
    /// The folder has no `txkit.json`: `txkit init` writes one.
    case missingConfiguration(path: String)
    /// A setting of `txkit.json` (`key`, a path such as
    /// `legacyTransactions[0].bridge`) that is unknown, missing or wrong,
    /// with what to do about it.
    case invalidSetting(path: String, key: String, problem: String, fix: String)
    /// A file at an output path was not written by txkit.
    case notGenerated(path: String)
    /// Two edits of `--apply` overlap: a bug in txkit, reported rather
    /// than written.
    case overlappingEdits(path: String, locations: [String])
    /// A file txkit generated or edited does not parse: a bug in txkit,
    /// reported rather than written.
    case unparsableResult(path: String, diagnostics: String)
    /// `--verify`: the package does not build after `--apply`; every file
    /// was restored.
    case buildFailed(command: String, errors: [String], restored: [String])

    /// The places refused, when txkit refused (``refused(_:_:)``).
    package var refusals: [Refusal] {
        if case let .refused(_, refusals) = self { return refusals }
        return []
    }

    /// Where txkit refused: the first place of ``refusals``.
    package var location: SourceLocation? {
        refusals.first?.location
    }

    /// txkit shim refuses what `consumer` uses of `legacy` (the plan stage).
    package static func shimRefused(consumer: String, legacy: String, _ refusals: [Refusal]) -> GeneratorError {
        .refused("txkit shim cannot shim what \(consumer) uses of \(legacy)", refusals)
    }

    /// `txkit shim --apply` refuses to rewrite `consumer`.
    package static func applyRefused(consumer: String, legacy: String, _ refusals: [Refusal]) -> GeneratorError {
        .refused("--apply cannot route \(consumer) through its shim of \(legacy)", refusals)
    }

    /// `txkit mock` refuses `protocolName`.
    package static func mockRefused(protocol protocolName: String, _ refusals: [Refusal]) -> GeneratorError {
        .refused("txkit mock cannot mock \(protocolName)", refusals)
    }

    /// `txkit migrate` cannot take `consumer` to the abstractions.
    package static func migrateRefused(consumer: String, _ refusals: [Refusal]) -> GeneratorError {
        .refused("txkit migrate cannot migrate \(consumer)", refusals)
    }

    /// `txkit convert` leaves places of `legacy`'s conversion to a person.
    package static func convertRefused(legacy: String, _ refusals: [Refusal]) -> GeneratorError {
        .refused("txkit convert cannot convert \(legacy) without a person", refusals)
    }

    package var description: String {
        switch self {
        case let .unparsableSource(path, diagnostics):
            return "\(path) does not parse; nothing was written:\n\(diagnostics)"
        case let .unreadablePath(path, reason):
            return "cannot read \(path): \(reason)"
        case let .typeNotFound(name, searched):
            return "no declaration of type \(name) in \(searched.joined(separator: ", ")); "
                + "check the name and the sources in txkit.json (or --sources)"
        case let .ambiguousType(name, locations):
            return "\(name) is declared in several modules; nothing was written. Keep the sources of one module "
                + "in txkit.json (or --sources), or rename one:\n" + locations.map { "  \($0)" }.joined(separator: "\n")
        case let .unusedType(consumer, legacy):
            return "\(consumer) does not use \(legacy): no expression of type \(legacy) (its name, a property, "
                + "local or parameter, a singleton, a temporary, a chain through another type) whose members it "
                + "uses; nothing to shim"
        case let .refused(what, refusals):
            return "\(what)\(refusals.count > 1 ? " at \(refusals.count) places" : ""); nothing was written:\n"
                + refusals.map { "  \($0)" }.joined(separator: "\n")
        case let .unwritablePath(path, reason):
            return "cannot write \(path): \(reason)"
        case let .invalidConfiguration(message):
            return "invalid txkit.json: \(message)"
        case let .missingConfiguration(path):
            return "\(path) does not exist: txkit reads its settings there. Run `txkit init` in that folder "
                + "(with the plugin: `swift package --allow-writing-to-package-directory txkit init`) to write a "
                + "starting configuration from your sources, or pass --root the folder that holds txkit.json "
                + "(Guides/Configuration.md)"
        case let .invalidSetting(path, key, problem, fix):
            return "\(path): \(key): \(problem). \(fix) (Guides/Configuration.md)"
        case let .notGenerated(path):
            return "\(path) exists and was not generated by txkit (no marker on its first line); "
                + "it was not overwritten. Move it away or delete it, then run the command again"
        case let .overlappingEdits(path, locations):
            return "internal error: --apply planned overlapping edits in \(path) at \(locations.joined(separator: ", ")); "
                + "nothing was written. Please report it with the code at these places"
        case let .unparsableResult(path, diagnostics):
            return "internal error: what txkit would write to \(path) does not parse; nothing was written:\n"
                + diagnostics
        case let .buildFailed(command, errors, restored):
            var text = "`\(command)` failed after --apply; restored \(restored.count) file"
                + (restored.count == 1 ? "" : "s") + " as they were"
            if !errors.isEmpty {
                text += ". The compiler's first errors:\n" + errors.map { "  \($0)" }.joined(separator: "\n")
            }
            return text
        }
    }
}
#endif
