#if Txkit
import Foundation
import Testing
import TxkitGeneratorTestSupport

/// The hand-written oracle of the real-world corpus
/// (Fixtures/RealWorld/oracle.json): for every manager → legacy pair, what
/// `txkit shim`, `txkit inventory` and `txkit shim --apply` must produce.
/// The format is described in Fixtures/RealWorld/README.md.
struct RealWorldOracle: Decodable, Sendable {
    /// One app of the corpus: its folder holds its `txkit.json`.
    struct App: Decodable, Sendable {
        var name: String
        /// The app's folder, relative to the corpus package.
        var root: String
        var tests: String
    }

    /// One member of a shim, as its protocol requirement must be written.
    struct Member: Decodable {
        var requirement: String
        /// `read`, `write` or `none` (the member takes no transaction).
        var transaction: String
        /// The shape of the use in the consumer, for people.
        var shape: String
    }

    /// What `--apply` must do for a pair.
    enum ApplyOutcome: String, Decodable {
        /// Rewrite the consumer (and the package still builds).
        case succeed
        /// Refuse, with the place and the reason.
        case refuse
        /// Either is right (the issue allows both).
        case either
    }

    /// One consumer → legacy pair.
    struct Pair: Decodable, CustomTestStringConvertible, Sendable {
        var app: String
        var consumer: String
        var legacy: String
        /// `generate`, or `refuse` when no shim can stand for the uses.
        var shim: String
        var members: [Member]
        /// How many times the consumer uses the legacy type's members (call
        /// sites, in source).
        var uses: Int
        var apply: ApplyOutcome
        var reason: String?

        /// `Consumer → Legacy`, the name known-issue lists use.
        var name: String { "\(consumer) → \(legacy)" }
        var testDescription: String { "\(app): \(name)" }
    }

    var apps: [App]
    var pairs: [Pair]

    /// The corpus package.
    static let corpus = RepositoryPaths.fixtures + "/RealWorld"

    /// The oracle, read once.
    static let shared: Result<RealWorldOracle, any Error> = Result {
        let data = try Data(contentsOf: URL(fileURLWithPath: corpus + "/oracle.json"))
        return try JSONDecoder().decode(RealWorldOracle.self, from: data)
    }

    /// The pairs, for parameterized tests; empty when the oracle cannot be
    /// read (``RealWorldCorpusTests/theOracleCoversThreeAppsAndThirtyPairs()``
    /// then fails).
    static var pairs: [Pair] {
        (try? shared.get().pairs) ?? []
    }

    /// The folder of the app a pair belongs to.
    func root(of pair: Pair) -> String? {
        apps.first { $0.name == pair.app }.map { Self.corpus + "/" + $0.root }
    }
}

extension RealWorldOracle.Member: Sendable {}
extension RealWorldOracle.ApplyOutcome: Sendable {}
#endif
