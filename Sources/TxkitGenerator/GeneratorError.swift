#if Txkit
/// Why `txkit shim`, `mock` or `inventory` refused to run. Nothing is
/// written when one of these is thrown.
package enum GeneratorError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A source file does not parse; `diagnostics` shows where.
    case unparsableSource(path: String, diagnostics: String)
    /// A path that cannot be read.
    case unreadablePath(String, reason: String)
    /// No declaration of this type in the sources.
    case typeNotFound(String, searched: [String])
    /// Types of this name are declared in several modules (source folders);
    /// `locations` lists them.
    case ambiguousType(String, locations: [String])
    /// The consumer reaches the legacy type in a way the generator cannot
    /// follow (a type alias, a generic parameter, a collection): a shim
    /// made without it could miss members.
    case unresolvedReference(String, location: String)
    /// The consumer never uses the legacy type.
    case unusedType(consumer: String, legacy: String)
    /// The consumer is the legacy type itself: its calls of its own
    /// members need no shim.
    case selfPair(String, location: String)
    /// A call matches several members (or none) of the legacy type.
    case ambiguousCall(String, location: String, candidates: [String])
    /// A use that fits no member of the legacy type; `candidates` are the
    /// members of that name.
    case noMatchingMember(String, location: String, candidates: [String])
    /// A call or use the generator cannot turn into a shim member.
    case unsupportedUse(String, location: String)
    /// A use `txkit shim --apply` cannot rewrite without guessing.
    case cannotApply(String, location: String)
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
    /// `txkit mock --protocol` named a type that is not a protocol.
    case notAProtocol(String, kind: String, location: String)
    /// A file at an output path was not written by txkit.
    case notGenerated(path: String)
    /// The legacy type has no member that takes a legacy transaction.
    case noLegacyTransaction(legacy: String, transactions: [String], location: String)
    /// Two edits of `--apply` overlap: a bug in txkit, reported rather
    /// than written.
    case overlappingEdits(path: String, locations: [String])
    /// A file txkit generated or edited does not parse: a bug in txkit,
    /// reported rather than written.
    case unparsableResult(path: String, diagnostics: String)
    /// `--apply` refuses at several places (each a ``cannotApply(_:location:)``
    /// or another error of its own): one run lists them all.
    case refusals([GeneratorError])
    /// `--verify`: the package does not build after `--apply`; every file
    /// was restored.
    case buildFailed(command: String, errors: [String], restored: [String])

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
        case let .unresolvedReference(reference, location):
            return "\(location): \(reference); txkit cannot tell which members are used through it, "
                + "so nothing was written. Name the legacy type there (a property, local or parameter of its type)"
        case let .selfPair(type, location):
            return "\(location): \(type) is both the consumer and the legacy type: a type's calls of its own members "
                + "take its own transaction and need no shim; shim the pairs where another type uses \(type) "
                + "(`txkit inventory` lists them), or turn \(type) into a protocol with `txkit convert --legacy \(type)`"
        case let .unusedType(consumer, legacy):
            return "\(consumer) does not use \(legacy): no expression of type \(legacy) (its name, a property, "
                + "local or parameter, a singleton, a temporary, a chain through another type) whose members it "
                + "uses; nothing to shim"
        case let .ambiguousCall(call, location, candidates):
            return "\(location): \(call) matches several members; label the arguments or remove an overload:\n"
                + candidates.map { "  \($0)" }.joined(separator: "\n")
        case let .noMatchingMember(use, location, candidates):
            if candidates.isEmpty {
                return "\(location): \(use) uses no member the legacy type, its superclasses or its protocols "
                    + "declare in the sources"
            }
            return "\(location): \(use) fits none of these members:\n"
                + candidates.map { "  \($0)" }.joined(separator: "\n")
        case let .unsupportedUse(use, location):
            return "\(location): \(use) cannot be shimmed"
        case let .cannotApply(reason, location):
            return "\(location): --apply cannot rewrite this, nothing was written: \(reason)"
        case let .refusals(errors):
            return "--apply cannot rewrite \(errors.count) places, nothing was written:\n"
                + errors.map { "  \($0)" }.joined(separator: "\n")
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
        case let .notAProtocol(name, kind, location):
            return "\(location): \(name) is \(kind), not a protocol, so txkit mock cannot mock it. txkit mock "
                + "writes mocks of finder protocols (the Good Way). For a legacy type that managers use, run "
                + "txkit shim --consumer MANAGER --legacy \(name) (the Shortcut Way), or declare a protocol for it "
                + "and mock that"
        case let .notGenerated(path):
            return "\(path) exists and was not generated by txkit (no marker on its first line); "
                + "it was not overwritten. Move it away or delete it, then run the command again"
        case let .noLegacyTransaction(legacy, transactions, location):
            return "\(location): no member of \(legacy) takes a legacy transaction "
                + "(\(transactions.joined(separator: ", "))); it needs no shim: pass --legacy a type whose "
                + "members take one, or add its transaction type to legacyTransactions in txkit.json"
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
