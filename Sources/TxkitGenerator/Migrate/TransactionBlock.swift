#if Txkit
import SwiftSyntax

/// A transaction a consumer opens on its database the legacy way:
/// `dbQueue.write { db in … }`, `try await writer.read { db in … }`,
/// `storage.write { transaction in … }` on an app's own holder.
struct TransactionBlock {
    /// How the block's transaction ends.
    enum Style {
        /// `read`/`write`: commits when the block returns.
        case plain
        /// `inTransaction`: the block returns `.commit` (or `.rollback`).
        case inTransaction
        /// A method of the app's holder that takes more than the block
        /// (`asyncWrite(block:completion:)`): it stays the holder's, called
        /// through the `Database` shim, its block given the transaction.
        case holderCall(DatabaseHolder.Method)
        /// `db.read { tx in … }` on a TransactionKit database already,
        /// its code bridging `tx` to the legacy transaction: the block
        /// stays, its legacy code moves onto the shims.
        case bridged(BridgedCode)
    }

    /// The whole call.
    var call: FunctionCallExprSyntax
    var closure: ClosureExprSyntax
    /// What the call is made on (`dbQueue`, `dependencies.databaseStorage`).
    var receiver: ExprSyntax
    /// The receiver's type.
    var receiverType: String
    var kind: TransactionKind
    var style: Style
    /// Whether the call is awaited (GRDB's async `read`/`write`, an async
    /// holder method).
    var isAwaited: Bool
    /// The closure's parameter (`db`), and its type.
    var legacyName: String
    var legacyParameter: Syntax?
    var legacyType: String
    var file: SourceFile
}

/// A type of the sources that opens the app's transactions for others
/// (an `AppDatabase`, a `DatabaseStorage`, an actor around a pool): its
/// methods that run a closure with a legacy transaction.
struct DatabaseHolder {
    /// One such method.
    struct Method {
        var name: String
        var kind: TransactionKind
        var isAsync: Bool
        /// The legacy transaction its closure receives.
        var legacyType: String
        /// Other parameters than the closure (`completion:`): not a plain
        /// transaction block.
        var hasOtherParameters: Bool
        /// The declaration, for a method with other parameters.
        var member: IndexedMember
        /// The argument label of its block (`block:`), `nil` for `_`.
        var closureLabel: String?
    }

    var type: IndexedType
    var methods: [String: Method]
    /// The stored property that holds the `SQLiteDB` adopting its pool, if
    /// the app added one.
    var adoptedProperty: String?

    /// The holder `type` is, if its methods open transactions.
    init?(_ type: IndexedType, context: MigrationContext) {
        var methods: [String: Method] = [:]
        for member in type.members where member.kind == .function && !member.isStatic {
            let closures = member.parameters.filter { parameter in
                guard parameter.isClosure, let legacy = Self.closureParameterType(parameter.type) else { return false }
                return legacy == "Database" || context.legacyTransaction(legacy) != nil
            }
            guard closures.count == 1, let closure = closures.first, let legacy = Self.closureParameterType(closure.type)
            else { continue }
            let configured = context.legacyTransaction(legacy)?.transaction
            let isWrite = configured == .write || (configured != .read && member.name.lowercased().contains("write"))
            methods[member.name] = Method(
                name: member.name, kind: isWrite ? .write : .read, isAsync: member.isAsync, legacyType: legacy,
                hasOtherParameters: member.parameters.count > 1, member: member, closureLabel: closure.label)
        }
        guard !methods.isEmpty else { return nil }
        self.type = type
        self.methods = methods
        adoptedProperty = Self.adoptedProperty(of: type)
    }

    /// The property of `type` that holds the `SQLiteDB` adopting its pool.
    static func adoptedProperty(of type: IndexedType) -> String? {
        type.members.first { member in
            guard case .property = member.kind, !member.isStatic, let result = member.resultType else { return false }
            return SourceIndex.coreTypeName(result) == "SQLiteDB"
        }?.name ?? adoptedByInitializer(type)
    }

    /// `let sqlite = try SQLiteDB(adopting: pool)` without a written type.
    private static func adoptedByInitializer(_ type: IndexedType) -> String? {
        for declaration in type.declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings where binding.initializer?.value.trimmedDescription.contains("SQLiteDB(adopting:") == true {
                    if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { return name }
                }
            }
        }
        return nil
    }

    /// `@Sendable (Database) throws -> T` → `Database`.
    static func closureParameterType(_ type: String) -> String? {
        var text = type
        for attribute in ["@escaping", "@Sendable", "@MainActor"] {
            text = text.replacingOccurrences(of: attribute, with: "")
        }
        text = text.trimmingWhitespace
        guard text.hasPrefix("("), let close = text.firstIndex(of: ")") else { return nil }
        let inside = text[text.index(after: text.startIndex) ..< close]
        let parameters = TypeText.topLevelSplit(String(inside), separator: ",")
        guard parameters.count == 1 else { return nil }
        return SourceIndex.coreTypeName(parameters[0])
    }
}
#endif
