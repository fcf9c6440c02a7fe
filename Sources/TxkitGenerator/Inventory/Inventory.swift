#if Txkit
import Foundation
import SwiftSyntax

/// The migration's state, as `txkit inventory` reports it: the legacy
/// types, who uses them and how, and the Good-Way finders.
public struct Inventory: Codable, Equatable, Sendable {
    /// How a consumer reaches a legacy type or a finder.
    package enum State: String, Codable, Sendable {
        /// It names the legacy type (a static call, a property of its type).
        case direct
        /// Through its generated shim (`Shims.Legacy`), Shortcut Way.
        case bridged
        /// Through a Good-Way finder protocol.
        case converted
    }

    public struct Use: Codable, Equatable, Sendable {
        public var consumer: String
        /// The legacy type, or the finder protocol for `converted`.
        public var type: String
        package var state: State
        /// For `bridged`: whether the generated shim and wrapper match what
        /// `txkit shim` generates now (`nil` when none was generated).
        package var isCurrent: Bool?
    }

    /// A place that names a legacy type in a way the inventory could not
    /// follow to a member (a generic argument, a collection, a cast): the
    /// use behind it is not counted, so it is listed.
    package struct Unresolved: Codable, Equatable, Sendable {
        package var consumer: String
        package var type: String
        /// `file:line`.
        package var location: String
        /// The source line, trimmed.
        package var text: String

        package init(consumer: String, type: String, location: String, text: String) {
            self.consumer = consumer
            self.type = type
            self.location = location
            self.text = text
        }
    }

    /// Types with members that take a legacy transaction.
    public var legacyTypes: [String]
    /// Protocols with members that take a `DBReadTransaction` or
    /// `DBWriteTransaction` (Good-Way finders), generated shims excluded.
    package var finders: [String]
    public var uses: [Use]
    /// The references to legacy types not counted in ``uses``, in source order.
    package var unresolved: [Unresolved] = []
    /// Every consumer of the database and how it reaches it.
    package var consumers: [ConsumerAccess] = []

    package var directCount: Int { uses.filter { $0.state == .direct }.count }
    package var bridgedCount: Int { uses.filter { $0.state == .bridged }.count }
    package var staleCount: Int { uses.filter { $0.isCurrent == false }.count }
    package var convertedCount: Int { uses.filter { $0.state == .converted }.count }

    /// The consumers' progress, one line: those migrated (consuming only
    /// the abstractions) among all.
    package var consumerProgressLine: String {
        let migrated = consumers.filter { $0.state == .migrated }.count
        let bridged = consumers.filter { $0.state == .bridged }.count
        let legacy = consumers.filter { $0.state == .legacy }.count
        let percent = consumers.isEmpty ? 100 : migrated * 100 / consumers.count
        return "\(migrated) of \(consumers.count) consumers migrated (\(percent) %): \(legacy) legacy, \(bridged) bridged"
    }

    /// One line for CI logs and dashboards.
    package var progressLine: String {
        let migrated = bridgedCount + convertedCount
        let total = uses.count
        let percent = total == 0 ? 100 : migrated * 100 / total
        return "\(migrated) of \(total) uses migrated (\(percent) %): \(directCount) direct, "
            + "\(bridgedCount) bridged (\(staleCount) stale), \(convertedCount) converted, unresolved: \(unresolved.count)"
    }
}

extension Inventory {
    /// Lists legacy types and finders and classifies every consumer's use
    /// of them: direct uses are those the consumer scan resolves (through
    /// the type's name, a property, local or parameter, a singleton, a
    /// temporary, a chain through another type) and the names it follows;
    /// shims and finders are found by the names the consumer mentions.
    /// Every other mention of a legacy type is listed as unresolved.
    ///
    /// - Parameters:
    ///   - generatedPairs: The pairs a previous `txkit shim` generated.
    ///   - isShimCurrent: Whether the shim and wrapper of a generated pair
    ///     are what `txkit shim` writes now.
    init(
        index: SourceIndex, configuration: GeneratorConfiguration, generatedPairs: [(consumer: String, legacy: String)],
        isShimCurrent: (_ consumer: String, _ legacy: String) -> Bool
    ) {
        let isLegacyTransaction = configuration.isLegacyTransaction
        var legacyTypes: [String] = []
        var finders: [String] = []
        for name in index.typeNames where !name.contains(".") {
            let type = index.types[name]!
            if Self.isGenerated(type) { continue }
            let types = Set(type.members.flatMap { $0.parameters.map(\.type) })
            if type.kind == .protocol {
                if types.contains("DBReadTransaction") || types.contains("DBWriteTransaction") {
                    finders.append(name)
                } else if Self.requiresLegacyTransaction(type, isLegacyTransaction: isLegacyTransaction) {
                    legacyTypes.append(name)
                }
            } else if type.allMembers.contains(where: { $0.parameters.contains { isLegacyTransaction($0.type) } }) {
                legacyTypes.append(name)
            }
        }
        let legacySet = Set(legacyTypes)
        let finderSet = Set(finders)
        let generated = Set(generatedPairs.map { "\($0.consumer)|\($0.legacy)" })

        // The modules' names, which may qualify a type (`App.Legacy`).
        let modules = Set(index.sources.files.compactMap { SourceIndex.module(of: $0.path).split(separator: "/").last.map(String.init) })
        // A legacy type is a consumer too (a table class calling
        // another): its uses of the others count, not of itself.
        let candidates = index.typeNames.filter { name in
            !name.contains(".") && !finderSet.contains(name) && !Self.isGenerated(index.types[name]!) && !isLegacyTransaction(name)
        }
        // Each consumer on its own, on every core; listed in the order of
        // the types.
        let classified = candidates.concurrentMap { name in
            var uses: [Inventory.Use] = []
            var unresolved: [Inventory.Unresolved] = []
            let type = index.types[name]!
            let scan = index.consumerScans.prepare(type, for: legacySet, index: index, configuration: configuration)
            // A use is a call of a member that takes a legacy transaction:
            // a model's other members (`record.mapToAsset()`) are not data
            // access.
            let takesTransaction = { (use: ConsumerUse) -> Bool in
                guard let legacy = index.types[use.legacyType] else { return true }
                let members = legacy.allMembers { $0.name == use.memberName }
                return members.isEmpty || members.contains { $0.parameters.contains { isLegacyTransaction($0.type) } }
            }
            let scanned = scan.uses.filter(\.isThroughLegacyType)
            var direct = Set(scanned.filter(takesTransaction).map(\.legacyType).filter { $0 != name })
            let followed = Set(scanned.map(\.legacyType))
            var mentions: [String: Int] = [:]
            var bridged = Set<String>(), converted = Set<String>()
            for declaration in type.declarations where declaration.file.generatedBy == nil {
                // The two tokens before this one (nested types' aside).
                var last: String?, beforeLast: String?
                // The token after `token` inside the declaration's body.
                let end = declaration.memberBlock.endPosition
                let following = { (token: TokenSyntax) -> TokenSyntax? in
                    token.nextToken(viewMode: .sourceAccurate).flatMap { $0.position < end ? $0 : nil }
                }
                // Nested types are consumers of their own, as in the scan
                // (EntropyKit: `extension CryptoEngine { class
                // InboundGroupSession { … Room.fetchOne(db, …) } }` counted
                // CryptoEngine → Room too).
                let nested = Self.nestedTypeRanges(in: declaration.memberBlock)
                for token in declaration.memberBlock.tokens(viewMode: .sourceAccurate) {
                    if nested.contains(where: { $0.contains(token.position) }) { continue }
                    let text = token.text
                    defer { (beforeLast, last) = (last, text) }
                    guard legacySet.contains(text) else {
                        if finderSet.contains(text) {
                            converted.insert(text)
                        } else if case .identifier = token.tokenKind,
                                  let legacy = GeneratedLayout.legacy(ofShimName: text, consumer: name) {
                            if legacySet.contains(legacy) { bridged.insert(legacy) }
                        }
                        continue
                    }
                    // `Legacy(…)` or `Legacy.init(…)`, a stored property's
                    // value included: wiring (a finder built to be injected,
                    // or held by a container such as `Services.shared`) or a
                    // model's initializer, not a use; the calls through the
                    // value are found by the scan.
                    let nextToken = following(token)
                    let next = nextToken?.text ?? ""
                    let afterNext = nextToken.flatMap(following)?.text ?? ""
                    let isInitializerCall = (next == "(" || next == "." && afterNext == "init") && last != "."
                    // `Legacy.Nested`: a type nested in the legacy type (a
                    // result or model type), not a use of the type.
                    let qualifiesNestedType = next == "." && afterNext.first?.isUppercase == true
                        // `Legacy.self`, `Legacy.Type`: the type as a value
                        // (`container.decode(Event.self)`), not a use.
                        || next == "." && afterNext == "self"
                    let isDeclaredName = token.parent?.asProtocol((any NamedDeclSyntax).self)?.name.id == token.id
                        // A type position (`var record: WalletRecord`, a
                        // stored model, a result type) is no use either;
                        // what is done with the value is found by the scan.
                        || token.parent?.is(IdentifierTypeSyntax.self) == true
                    if text == name {
                        // Its own name, inside itself.
                    } else if qualifiesNestedType || isDeclaredName {
                        // A nested type's own declaration, or `Legacy.Nested`.
                    } else if isInitializerCall {
                        // Not a mention.
                    } else {
                        let qualifier = last == "." ? beforeLast : nil
                        if qualifier == GeneratedLayout.shimsNamespace {
                            bridged.insert(text)
                        } else if qualifier == nil || modules.contains(qualifier!) {
                            // `Other.Legacy` names a type nested in another
                            // type (`SecureVaultModels.CredentialsProvider`),
                            // not the legacy type; `Module.Legacy` does.
                            mentions[text, default: 0] += 1
                        }
                    }
                }
            }
            // A name the scan followed to no use at all is direct unless
            // every mention of it is unresolved; one it followed only to
            // members without a legacy transaction is a model, not a use.
            let unresolvedCounts = Dictionary(grouping: scan.unresolved, by: \.legacyType).mapValues(\.count)
            for (legacy, count) in mentions where count > unresolvedCounts[legacy, default: 0] && !followed.contains(legacy) {
                direct.insert(legacy)
            }
            // One entry per line and type: `(event: Event, cb: (Result<Event, Error>) -> Void)`
            // is one place to look at, not two.
            var listed: Set<String> = []
            unresolved += scan.unresolved.compactMap {
                guard listed.insert("\($0.legacyType)|\($0.location)").inserted else { return nil }
                return Inventory.Unresolved(consumer: name, type: $0.legacyType, location: "\($0.location)", text: $0.text)
            }
            for legacy in direct.sorted() {
                uses.append(.init(consumer: name, type: legacy, state: .direct, isCurrent: nil))
            }
            for legacy in bridged.subtracting(direct).sorted() {
                let isCurrent = generated.contains("\(name)|\(legacy)") ? isShimCurrent(name, legacy) : nil
                uses.append(.init(consumer: name, type: legacy, state: .bridged, isCurrent: isCurrent))
            }
            for finder in converted.sorted() {
                uses.append(.init(consumer: name, type: finder, state: .converted, isCurrent: nil))
            }
            return (uses: uses, unresolved: unresolved)
        }
        self.init(
            legacyTypes: legacyTypes, finders: finders, uses: classified.flatMap(\.uses),
            unresolved: classified.flatMap(\.unresolved))
        consumers = ConsumerAccess.all(index: index, configuration: configuration)
    }

    /// Whether a protocol's own body (its requirements, not its
    /// extensions' shared implementations, which are called through the
    /// conforming types) has a member that takes a legacy transaction: a
    /// legacy protocol, used through `any P` or a generic parameter
    /// (firefox-ios's `Schema`, whose `create(_ db: SQLiteDBConnection)`
    /// calls inventory did not count).
    static func requiresLegacyTransaction(_ type: IndexedType, isLegacyTransaction: (String) -> Bool) -> Bool {
        type.declarations.contains { declaration in
            !declaration.isExtension && declaration.memberBlock.members.contains { item in
                let clause = item.decl.as(FunctionDeclSyntax.self)?.signature.parameterClause
                    ?? item.decl.as(InitializerDeclSyntax.self)?.signature.parameterClause
                    ?? item.decl.as(SubscriptDeclSyntax.self)?.parameterClause
                return clause?.parameters.contains { isLegacyTransaction($0.type.trimmedText) } ?? false
            }
        }
    }

    /// The spans of the types declared in `block`'s members.
    static func nestedTypeRanges(in block: MemberBlockSyntax) -> [Range<AbsolutePosition>] {
        block.members.compactMap { item in
            let decl = item.decl
            guard decl.is(ClassDeclSyntax.self) || decl.is(StructDeclSyntax.self) || decl.is(EnumDeclSyntax.self)
                || decl.is(ActorDeclSyntax.self) || decl.is(ProtocolDeclSyntax.self)
            else { return nil }
            return decl.position..<decl.endPosition
        }
    }

    private static func isGenerated(_ type: IndexedType) -> Bool {
        !type.declarations.isEmpty && type.declarations.allSatisfy { $0.file.generatedBy != nil }
    }
}
#endif
