#if Txkit
import SwiftSyntax

/// An app's own transaction classes, found by `txkit init`: a type of the
/// sources that wraps GRDB's `Database` in a stored property (`class
/// ReadTx { let database: Database }`, `final class WriteTx: ReadTx`) and
/// that the sources take as a parameter. For each, how a wrapper builds
/// one (its initializer that takes the `Database`), how legacy code that
/// holds one gets the TransactionKit transaction (the static bridge on
/// that property), whether it reads or writes (the subclass of another
/// such type writes; else its name says), and its completion hook, which
/// TransactionKit's transaction has as `addSyncCompletion`.
extension ConfigurationProposal {
    /// What txkit init proposes for one legacy transaction type.
    package struct LegacySetting: Equatable, Sendable {
        package var transaction: String
        package var bridge: String
        package var reverseBridge: (kind: String, expression: String)?
        package var renamedMembers: [String: String]

        package static func == (lhs: LegacySetting, rhs: LegacySetting) -> Bool {
            lhs.transaction == rhs.transaction && lhs.bridge == rhs.bridge && lhs.renamedMembers == rhs.renamedMembers
                && lhs.reverseBridge?.kind == rhs.reverseBridge?.kind && lhs.reverseBridge?.expression == rhs.reverseBridge?.expression
        }
    }

    /// The app's transaction wrapper types, with their settings.
    static func wrapperSettings(_ index: SourceIndex) -> [String: LegacySetting] {
        var wrappers: [String: (property: String, type: IndexedType)] = [:]
        for (name, type) in index.types where type.name == name && (type.kind == .class || type.kind == .struct) {
            if let property = databaseProperty(of: type, index: index) {
                wrappers[name] = (property, type)
            }
        }
        var settings: [String: LegacySetting] = [:]
        for (name, wrapper) in wrappers {
            let superclass = wrapper.type.inherited.first.map(SourceIndex.coreTypeName)
            let isSubclassOfWrapper = superclass.map { wrappers[$0] != nil } ?? false
            let hasWrapperSubclass = wrappers.values.contains { other in
                other.type.inherited.first.map(SourceIndex.coreTypeName) == name
            }
            let kind = isSubclassOfWrapper || name.contains("Write") ? "write"
                : hasWrapperSubclass || name.contains("Read") ? "read" : "infer"
            guard let label = initializerLabel(of: wrapper.type, index: index) else { continue }
            let argument = label == "_" ? "" : label + ": "
            var renamed: [String: String] = [:]
            if kind == "write" {
                for member in wrapper.type.allMembers where member.kind == .function && !member.isStatic
                    && member.name.lowercased().contains("completion") && member.parameters.count == 1
                    && member.parameters[0].type.contains("() -> Void") {
                    renamed[member.name] = "addSyncCompletion"
                }
            }
            settings[name] = LegacySetting(
                transaction: kind,
                bridge: "\(name)(\(argument)try SQLiteDB.shimOnlyBridge($tx))",
                reverseBridge: kind == "infer" ? nil : (kind, "SQLiteDB.\(kind)Transaction(bridging: $legacy.\(wrapper.property))"),
                renamedMembers: renamed)
        }
        return settings
    }

    /// The stored property of type `Database` a type (or a superclass of
    /// the sources) declares.
    private static func databaseProperty(of type: IndexedType, index: SourceIndex, depth: Int = 0) -> String? {
        guard depth < 8 else { return nil }
        for declaration in type.declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self),
                      !variable.modifiers.contains(where: { $0.name.text == "static" })
                else { continue }
                for binding in variable.bindings where binding.accessorBlock == nil {
                    let written = binding.typeAnnotation?.type.trimmedText ?? ""
                    if ["Database", "GRDB.Database"].contains(SourceIndex.coreTypeName(written)),
                       let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                        return name
                    }
                }
            }
        }
        guard let superclass = type.inherited.first.map(SourceIndex.coreTypeName), let parent = index.types[superclass] else {
            return nil
        }
        return databaseProperty(of: parent, index: index, depth: depth + 1)
    }

    /// The label of the initializer that takes one `Database` (its own, or
    /// one it inherits from a superclass of the sources).
    private static func initializerLabel(of type: IndexedType, index: SourceIndex, depth: Int = 0) -> String? {
        guard depth < 8 else { return nil }
        for declaration in type.declarations {
            for item in declaration.memberBlock.members {
                guard let initializer = item.decl.as(InitializerDeclSyntax.self) else { continue }
                let parameters = Array(initializer.signature.parameterClause.parameters)
                if parameters.count == 1, ["Database", "GRDB.Database"].contains(SourceIndex.coreTypeName(parameters[0].type.trimmedText)) {
                    return parameters[0].firstName.text
                }
            }
        }
        guard let superclass = type.inherited.first.map(SourceIndex.coreTypeName), let parent = index.types[superclass] else {
            return nil
        }
        return initializerLabel(of: parent, index: index, depth: depth + 1)
    }
}
#endif
