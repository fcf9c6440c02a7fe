#if Txkit
import SwiftSyntax

/// Read or write: which TransactionKit transaction a shim member takes in
/// place of its legacy transaction, decided from the source.
///
/// The rules, in the order they are tried (the first that knows decides):
///
/// 1. ``TransactionRule/configuration``: the member is listed in `writeMembers`
///    or `readMembers` of txkit.json (the user's word wins).
/// 2. ``TransactionRule/transactionType``: the legacy layer has a read and a
///    write transaction type, and the parameter's type says which.
/// 3. ``TransactionRule/body``: what the member's body executes on its
///    transaction (SQL text that starts with `INSERT`, `UPDATE`, `DELETE`…,
///    GRDB write calls such as `execute(sql:)`, `save(`, `deleteAll(`), or
///    that it never touches its transaction, or only fetches through it.
/// 4. ``TransactionRule/calls``: what the legacy members it calls (in the same
///    type, transitively) execute.
/// 5. ``TransactionRule/callers``: the blocks the consumer calls it in (a read
///    transaction forces a read; write transactions only, a write).
/// 6. ``TransactionRule/verbs``: the configured verb list (`insert…`, `set…`).
///
/// A read guess never breaks a caller (a write transaction is also a read
/// one); a write decided from the body is the truth, so a consumer that
/// calls the member inside a read transaction is told so by `--apply`.
enum TransactionRule: String, Sendable {
    case configuration
    case transactionType = "transaction type"
    case body
    case calls
    case callers
    case verbs
}

/// The transaction a member takes, the rule that decided, and why, for
/// the shim's doc comment.
struct TransactionDecision: Equatable, Sendable {
    var isWrite: Bool
    var rule: TransactionRule
    /// Why, in a few words: "its body executes UPDATE".
    var reason: String

    /// The transaction the member takes.
    var kind: TransactionKind { isWrite ? .write : .read }

    /// The doc comment line the shim gives the member.
    var documentation: String {
        "/// \(isWrite ? "Write" : "Read"): \(reason) (rule: \(rule.rawValue))"
    }
}

extension ShimPlan {
    /// Which transaction `member` takes in place of its legacy transaction
    /// of type `parameterType` (see ``TransactionRule`` for the order).
    static func transactionDecision(
        of member: IndexedMember, parameterType: String, in legacy: IndexedType, uses: [ConsumerUse],
        configuration: GeneratorConfiguration, bodies: LegacyBodies
    ) -> TransactionDecision {
        let qualified = "\(legacy.name).\(member.name)"
        if configuration.writeMembers.contains(qualified) {
            return TransactionDecision(isWrite: true, rule: .configuration, reason: "writeMembers lists it")
        }
        if configuration.readMembers.contains(qualified) {
            return TransactionDecision(isWrite: false, rule: .configuration, reason: "readMembers lists it")
        }
        if let decision = accessFromTransactionType(parameterType, configuration: configuration) {
            return decision
        }
        switch bodies.effect(of: member) {
        case let .writes(reason, via: nil):
            return TransactionDecision(isWrite: true, rule: .body, reason: "its body \(reason)")
        case let .writes(reason, via: callee?):
            return TransactionDecision(isWrite: true, rule: .calls, reason: "it calls \(callee), whose body \(reason)")
        case let .reads(reason):
            return TransactionDecision(isWrite: false, rule: .body, reason: "its body \(reason)")
        case .unknown:
            break
        }
        // Where, by the member that calls it: a path or a line number would
        // change the generated file with every unrelated edit or checkout.
        if let read = uses.first(where: { $0.context == .read }) {
            return TransactionDecision(
                isWrite: false, rule: .callers, reason: "\(callerName(read)) calls it in a read transaction")
        }
        if let write = uses.first, uses.allSatisfy({ $0.context == .write }) {
            let more = uses.count > 1 ? " (and \(uses.count - 1) more)" : ""
            return TransactionDecision(
                isWrite: true, rule: .callers, reason: "\(callerName(write))\(more) calls it in a write transaction")
        }
        if let verb = writingVerb(of: member.name) {
            return TransactionDecision(isWrite: true, rule: .verbs, reason: "its name starts with \"\(verb)\"")
        }
        return TransactionDecision(isWrite: false, rule: .verbs, reason: "its name starts with no writing verb")
    }

    /// `` `Consumer.method` ``: the member a use is in, for doc comments.
    static func callerName(_ use: ConsumerUse) -> String {
        var node = use.node.parent
        var member: String?
        while let current = node {
            if member == nil {
                if let function = current.as(FunctionDeclSyntax.self) { member = function.name.text }
                if current.is(InitializerDeclSyntax.self) { member = "init" }
                if let binding = current.as(PatternBindingSyntax.self), binding.parent?.parent?.parent?.is(MemberBlockItemSyntax.self) == true {
                    member = binding.pattern.trimmedText
                }
            }
            for type in [current.as(ClassDeclSyntax.self)?.name, current.as(StructDeclSyntax.self)?.name,
                         current.as(ActorDeclSyntax.self)?.name, current.as(EnumDeclSyntax.self)?.name].compactMap({ $0 }) {
                return "`\(type.text).\(member ?? "code")`"
            }
            if let extensionDecl = current.as(ExtensionDeclSyntax.self) {
                return "`\(extensionDecl.extendedType.trimmedText).\(member ?? "code")`"
            }
            node = current.parent
        }
        return "`\(member ?? "code")`"
    }

    /// Rule 2: the parameter's legacy transaction type is configured as a
    /// read or a write one, or the legacy layer has two types whose names
    /// say `Read` and `Write`.
    static func accessFromTransactionType(
        _ type: String, configuration: GeneratorConfiguration
    ) -> TransactionDecision? {
        guard let transaction = configuration.legacyTransaction(forParameterType: type) else { return nil }
        switch transaction.transaction {
        case .read:
            return TransactionDecision(isWrite: false, rule: .transactionType, reason: "it takes \(type)")
        case .write:
            return TransactionDecision(isWrite: true, rule: .transactionType, reason: "it takes \(type)")
        case .infer:
            let names = configuration.legacyTransactions.map(\.type)
            guard names.count > 1,
                  names.contains(where: { $0.contains("Read") }), names.contains(where: { $0.contains("Write") })
            else { return nil }
            if type.contains("Write") {
                return TransactionDecision(isWrite: true, rule: .transactionType, reason: "it takes \(type)")
            }
            if type.contains("Read") {
                return TransactionDecision(isWrite: false, rule: .transactionType, reason: "it takes \(type)")
            }
            return nil
        }
    }

    /// The writing verb `name` starts with (`insert` of `insertUser`), if any.
    static func writingVerb(of name: String) -> String? {
        writingVerbs.first { verb in
            name.hasPrefix(verb)
                && (name.count == verb.count || name[name.index(name.startIndex, offsetBy: verb.count)].isUppercase)
        }
    }
}

extension ShimPlan {
    /// Refuses a legacy type none of whose members takes a legacy
    /// transaction (a model struct, a helper): it needs no shim, and a
    /// shim of it would bridge nothing.
    static func requireLegacyTransactionMember(in legacy: IndexedType, configuration: GeneratorConfiguration) throws {
        try refuseShadowedDatabase(configuration: configuration, index: legacy.index)
        let takesOne = legacy.members.contains { member in
            member.parameters.contains { configuration.legacyTransaction(forParameterType: $0.type) != nil }
        }
        guard !takesOne else { return }
        throw Refusal(
            .noLegacyTransaction, at: legacy.location,
            "no member of \(legacy.name) takes a legacy transaction "
                + "(\(configuration.legacyTransactions.map(\.type).joined(separator: ", "))), so it needs no shim",
            fix: "pass --legacy a type whose members take one, or add its transaction type to legacyTransactions "
                + "in txkit.json")
    }

    /// Refuses `Database` as a legacy transaction when the sources declare
    /// a `Database` of their own: in their module it shadows GRDB's, so the
    /// finders' `Database` parameters are that type, and a wrapper that
    /// passes the connection `SQLiteDB.shimOnlyBridge` gives would not
    /// compile (EntropyKit's `class Database` wraps a queue).
    static func refuseShadowedDatabase(configuration: GeneratorConfiguration, index: SourceIndex?) throws {
        guard configuration.legacyTransactions.contains(where: { $0.type == "Database" }),
              let own = index?.types["Database"], own.kind != nil
        else { return }
        let kind = own.kind?.rawValue ?? "type"
        throw Refusal(
            .unsupportedUse, at: own.location,
            "txkit.json names Database as a legacy transaction, but the sources declare a \(kind) Database of "
                + "their own, which shadows GRDB's where it is declared: parameters spelled Database are that "
                + "\(kind), not the connection the bridge gives",
            fix: "name \"GRDB.Database\" in txkit.json for the finders that spell GRDB's so, and give the app's "
                + "own Database an entry of its own if it stands for a transaction (txkit init proposes this)")
    }
}
#endif
