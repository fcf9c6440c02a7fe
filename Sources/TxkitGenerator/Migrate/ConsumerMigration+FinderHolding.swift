#if Txkit
import SwiftSyntax

extension ConsumerMigration {
    /// How the stored property `name`, written `type`, holds its finder:
    /// weakly when `weak` and the pair's wrapper keeps its instance weakly
    /// (``ShimPlan/holdsLegacyWeakly``), optionally when its type is.
    func finderHolding(_ name: String, type: String, plan: ShimPlan) -> MigrationContext.FinderProperty.Holding {
        let isWeak = context.consumer.declarations.contains { declaration in
            declaration.memberBlock.members.contains { item in
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { return false }
                return variable.modifiers.contains { $0.name.text == "weak" }
                    && variable.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }
            }
        }
        if isWeak, plan.holdsLegacyWeakly {
            let taken = Set(context.consumer.allMembers.map(\.name))
            var reference = name + "Reference"
            while taken.contains(reference) { reference += "_" }
            return .weak(reference: reference)
        }
        return type.trimmingWhitespace.hasSuffix("?") ? .optional : .strong
    }
}
#endif
