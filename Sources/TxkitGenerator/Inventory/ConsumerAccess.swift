#if Txkit
import SwiftSyntax

/// How one consumer reaches the database, as `txkit inventory` reports it:
/// migrated (it consumes only the abstractions), bridged (it calls migrated
/// code from inside the app's own transactions), or legacy (it opens the
/// app's transactions, receives a legacy transaction, or names GRDB's
/// records, requests or SQL in its code).
package struct ConsumerAccess: Codable, Equatable, Sendable {
    package enum State: String, Codable, Sendable, Comparable {
        case legacy, bridged, migrated

        package static func < (lhs: State, rhs: State) -> Bool {
            [State.legacy, .bridged, .migrated].firstIndex(of: lhs)! < [State.legacy, .bridged, .migrated].firstIndex(of: rhs)!
        }
    }

    package var consumer: String
    package var state: State
    /// Transactions it opens on a GRDB pool, queue, writer or an app's holder.
    package var blocks: Int
    /// Its methods that take a legacy transaction.
    package var legacyParameters: Int
    /// Names of GRDB's API in its code (records' requests, `Column`, `Row`,
    /// SQL helpers): data access `txkit migrate` moves into its shim.
    package var inlineNames: Int
    /// Its bridges from the app's transactions (`writeTransaction(bridging:)`).
    package var bridges: Int

    /// What the line of the table says after the state.
    package var details: String {
        var parts: [String] = []
        if blocks > 0 { parts.append("\(blocks) transaction\(blocks == 1 ? "" : "s") on the app's database") }
        if legacyParameters > 0 { parts.append("\(legacyParameters) method\(legacyParameters == 1 ? "" : "s") receiving a legacy transaction") }
        if inlineNames > 0 { parts.append("GRDB named \(inlineNames) time\(inlineNames == 1 ? "" : "s") (records, requests, SQL)") }
        if bridges > 0 { parts.append("\(bridges) bridge\(bridges == 1 ? "" : "s") from the app's transactions") }
        return parts.joined(separator: ", ")
    }
}

extension ConsumerAccess {
    /// The consumers of the sources and how each reaches the database: every
    /// class, struct or actor (not generated, not a GRDB record, not the
    /// app's holder or transaction class) whose code opens or receives a
    /// transaction, legacy or TransactionKit's, or names GRDB's API.
    /// Each type is read on its own, on every core; the consumers keep the
    /// order of the types.
    static func all(index: SourceIndex, configuration: GeneratorConfiguration) -> [ConsumerAccess] {
        let holders = holderMethods(index: index, configuration: configuration)
        return index.typeNames.filter { !$0.contains(".") }.concurrentMap { name -> ConsumerAccess? in
            guard let type = index.types[name], let kind = type.kind, [.class, .struct, .actor].contains(kind),
                  configuration.legacyTransaction(forParameterType: name) == nil,
                  holders.byType[name] == nil
            else { return nil }
            let own = type.declarations.filter { $0.file.generatedBy == nil }
            guard !own.isEmpty, !isRecord(type) else { return nil }
            let context = MigrationContext(index: index, configuration: configuration, consumer: type)
            return access(of: type, declarations: own, context: context, holders: holders)
        }.compactMap { $0 }
    }

    /// The methods of the sources' holders (``DatabaseHolder``) by type, and
    /// all their names: a call opens a transaction on a holder only under
    /// one of those names, so other calls need no typing.
    private struct HolderMethods {
        var byType: [String: Set<String>] = [:]
        var names: Set<String> = []
    }

    /// Reads every type once, on every core. A holder depends on the
    /// settings' legacy transactions, not on the consumer reading it.
    private static func holderMethods(index: SourceIndex, configuration: GeneratorConfiguration) -> HolderMethods {
        let found = index.typeNames.concurrentMap { name -> Set<String>? in
            guard let type = index.types[name] else { return nil }
            let context = MigrationContext(index: index, configuration: configuration, consumer: type)
            return DatabaseHolder(type, context: context).map { Set($0.methods.keys) }
        }
        var holders = HolderMethods()
        for (name, methods) in zip(index.typeNames, found) {
            guard let methods else { continue }
            holders.byType[name] = methods
            holders.names.formUnion(methods)
        }
        return holders
    }

    private static func isRecord(_ type: IndexedType) -> Bool {
        type.inherited.contains { GRDBVocabulary.recordProtocols.contains(SourceIndex.coreTypeName($0)) }
    }

    private static func access(
        of type: IndexedType, declarations: [TypeDeclaration], context: MigrationContext, holders: HolderMethods
    ) -> ConsumerAccess? {
        var blocks = 0, legacyParameters = 0, inlineNames = 0, bridges = 0, transactionKit = 0
        for declaration in declarations {
            let nodes = AccessNodes(in: declaration.memberBlock)
            for call in nodes.calls {
                guard let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { continue }
                let name = member.declName.baseName.text
                if name == "readTransaction" || name == "writeTransaction" || name == "shimOnlyBridge",
                   call.arguments.first?.label?.text == "bridging" || name == "shimOnlyBridge" {
                    bridges += 1
                    continue
                }
                let isGRDBBlock = GRDBVocabulary.blockMethods[name] != nil || name.hasPrefix("write")
                guard isGRDBBlock || holders.names.contains(name),
                      call.trailingClosure != nil || call.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) }),
                      let base = member.base, let receiverType = context.typer.type(of: base)
                else { continue }
                let core = SourceIndex.coreTypeName(receiverType)
                if GRDBVocabulary.handleTypes[core] != nil, isGRDBBlock {
                    blocks += 1
                } else if holders.byType[core]?.contains(name) == true {
                    blocks += 1
                }
            }
            for function in nodes.functions {
                let types = function.signature.parameterClause.parameters.map { SourceIndex.coreTypeName($0.type.trimmedText) }
                if types.contains(where: { $0 == "Database" || context.legacyTransaction($0) != nil }) { legacyParameters += 1 }
            }
            for reference in nodes.references where !FreeVariables.isMemberName(reference) {
                let name = reference.baseName.text
                if GRDBVocabulary.typeNames.contains(name), context.index.types[name] == nil,
                   !["Database", "DatabaseQueue", "DatabasePool"].contains(name) {
                    inlineNames += 1
                }
                if ["DBReadTransaction", "DBWriteTransaction", "DB", "AsyncDB"].contains(name) { transactionKit += 1 }
            }
            for identifier in nodes.identifierTypes {
                let name = identifier.name.text
                if ["DBReadTransaction", "DBWriteTransaction", "DB", "AsyncDB", "MockDB", "SQLiteDB"].contains(name) { transactionKit += 1 }
                if identifier.parent?.is(MemberTypeSyntax.self) != true, name == "Row" || name == "StatementArguments" || name == "DatabaseError" {
                    inlineNames += 1
                }
            }
        }
        let state: State
        if blocks + legacyParameters + inlineNames > 0 {
            state = .legacy
        } else if bridges > 0 {
            state = .bridged
        } else if transactionKit > 0 {
            state = .migrated
        } else {
            return nil
        }
        return ConsumerAccess(
            consumer: type.name, state: state, blocks: blocks, legacyParameters: legacyParameters,
            inlineNames: inlineNames, bridges: bridges)
    }
}
#endif
