#if Txkit
import SwiftSyntax

/// What every step of one consumer's migration shares: the sources, the
/// settings, the consumer, and the requirements extracted so far.
final class MigrationContext {
    let index: SourceIndex
    let configuration: GeneratorConfiguration
    let consumer: IndexedType
    /// Made when first asked: `txkit inventory` builds a context for every
    /// type of the sources and types expressions in few of them.
    lazy var typer = MigrationTyper(index: index, consumer: consumer)
    /// The consumer's property that holds its `Database` shim.
    private(set) lazy var shimProperty: String = {
        let taken = Set(consumer.allMembers.map(\.name))
        return ["dataAccess", "databaseAccess", "storeAccess"].first { !taken.contains($0) } ?? "migratedDataAccess"
    }()
    /// The requirements extracted so far, in order, with unique names.
    private(set) var requirements: [InlineRequirement] = []
    /// The consumer's stored properties that hold a legacy finder, and the
    /// pair that shims it.
    var finderProperties: [String: FinderProperty] = [:]
    /// The consumer's stored properties that hold a legacy finder whose
    /// pair cannot be shimmed, with the first reason the shim gave: code
    /// that uses them and cannot move into a shim is refused for it.
    var unshimmableFinders: [String: Refusal] = [:]
    /// The consumer's stored properties that hold a consumer migrated
    /// before it, built with its production initializer (`lazy var sender
    /// = Sender(dependencies: dependencies)`): name, type and that value.
    /// The migrated initializer takes them; the production one builds them.
    var collaboratorProperties: [String: (type: String, value: String)] = [:]
    /// The consumer's methods that take a legacy transaction, which the
    /// migration makes take a TransactionKit one.
    var migratedMethods: [MigratedMethod] = []

    /// A consumer method that takes a legacy transaction.
    struct MigratedMethod {
        var name: String
        /// Its argument labels (`nil` for `_`), to tell overloads apart.
        var labels: [String?]
        /// The legacy transaction's position.
        var position: Int
        var function: SyntaxIdentifier
        /// The TransactionKit transaction it takes instead.
        var kind: TransactionKind
    }

    /// A stored property holding a legacy finder that a pair shims.
    struct FinderProperty {
        var legacyType: String
        var plan: ShimPlan
        var holding: Holding = .strong

        /// How the property holds the finder, which its shim keeps.
        enum Holding: Equatable {
            /// `let store: Store`.
            case strong
            /// `var store: Store?`: the shim is optional.
            case optional
            /// `weak var store: Store?`: the shim is optional, and the
            /// wrapper's `WeakReference` held in `reference` keeps the
            /// production instance weakly.
            case weak(reference: String)
        }

        /// The shim's type as the consumer holds it.
        var shimType: String {
            holding == .strong ? "any Shims.\(legacyType)" : "(any Shims.\(legacyType))?"
        }
    }

    init(index: SourceIndex, configuration: GeneratorConfiguration, consumer: IndexedType) {
        self.index = index
        self.configuration = configuration
        self.consumer = consumer
    }

    /// Records `requirement` and returns it as recorded: the same code
    /// extracted before is that requirement; a name already taken by other
    /// code gets the consumer method's name, then a number.
    func add(_ requirement: InlineRequirement, method: String, qualifier: String? = nil) -> InlineRequirement {
        var requirement = requirement
        requirement.legacyType = bridgedType(of: requirement)
        if let same = requirements.first(where: { $0.isSameCode(as: requirement) }) {
            return same
        }
        var named = requirement
        let taken = Set(requirements.map(\.name))
        if taken.contains(named.name), let qualifier, !taken.contains(named.name + qualifier) {
            named.name += qualifier
        }
        if taken.contains(named.name) {
            let qualified = named.name + "In" + SwiftText.capitalized(method)
            named.name = qualified
            var number = 2
            while taken.contains(named.name) {
                named.name = qualified + String(number)
                number += 1
            }
        }
        requirements.append(named)
        return named
    }

    /// The legacy transaction type the requirement's wrapper builds: a read
    /// in a block of the app's write class (a subclass of its read class)
    /// builds the read class, as the same code in a read block does.
    private func bridgedType(of requirement: InlineRequirement) -> String {
        guard requirement.kind == .read, legacyTransaction(requirement.legacyType)?.transaction == .write,
              let inherited = index.types[requirement.legacyType]?.inherited,
              let read = configuration.legacyTransactions.first(where: { $0.transaction == .read && inherited.contains($0.type) })
        else { return requirement.legacyType }
        return read.type
    }

    /// Forgets the requirements the migrated code does not call (code
    /// extracted on its own, then moved whole with the code around it).
    func keepRequirements(calledIn texts: [String]) {
        let called = requirements.filter { requirement in
            texts.contains { $0.contains(".\(requirement.name)(") }
        }
        if !called.isEmpty { requirements = called }
    }

    /// Forgets the requirements added since `earlier` was read.
    func restore(_ earlier: [InlineRequirement]) {
        requirements = earlier
    }

    /// The legacy transaction settings of `type`, if it is one.
    func legacyTransaction(_ type: String) -> GeneratorConfiguration.LegacyTransaction? {
        configuration.legacyTransaction(forParameterType: type)
    }

    /// Whether a written type names something only GRDB declares, or a
    /// legacy transaction type.
    func isLegacyType(_ type: String) -> Bool {
        TypeText.identifiers(in: type).contains { name in
            (GRDBVocabulary.typeNames.contains(name) && index.types[name] == nil) || legacyTransaction(name) != nil
        } || TypeText.requestRecord(type) != nil
    }
}
#endif
