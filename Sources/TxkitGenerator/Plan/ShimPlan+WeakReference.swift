#if Txkit
import SwiftSyntax

extension ShimPlan {
    /// The name of the wrapper's nested type that holds a shim the way a
    /// `weak` stored property held the legacy instance (see
    /// ``holdsLegacyWeakly``).
    static let weakReferenceTypeName = "WeakReference"

    /// Whether the consumer holds the legacy type weakly: a
    /// `weak var store: Store?` stored property, or, once `--apply` has
    /// rewritten it, a property of the wrapper's ``weakReferenceTypeName``
    /// type. The wrapper then declares that type, so that the rewritten
    /// consumer keeps releasing the instance as it did.
    var holdsLegacyWeakly: Bool {
        Self.weakHolding(of: legacy.name, in: consumer) != nil
    }

    /// How `consumer` holds `legacy` weakly, if it does: `.property` for a
    /// `weak var store: Store?`, `.reference` for a stored property of the
    /// wrapper's ``weakReferenceTypeName`` type (what `--apply` made of one).
    static func weakHolding(of legacy: String, in consumer: IndexedType) -> WeakHolding? {
        let rewritten = "\(GeneratedLayout.wrapperReference(consumer: consumer.name, legacy: legacy)).\(weakReferenceTypeName)"
        for declaration in consumer.declarations {
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
                let isWeak = variable.modifiers.contains { $0.name.text == "weak" }
                for binding in variable.bindings {
                    if isWeak, let type = binding.typeAnnotation?.type.as(OptionalTypeSyntax.self),
                       type.wrappedType.trimmedText == legacy {
                        return .property
                    }
                    if binding.typeAnnotation?.type.trimmedText == rewritten
                        || binding.initializer?.value.trimmedText.hasPrefix(rewritten) == true {
                        return .reference(location: declaration.file.sourceLocation(of: binding))
                    }
                }
            }
        }
        return nil
    }

    /// See ``weakHolding(of:in:)``.
    enum WeakHolding: Equatable {
        case property
        case reference(location: SourceLocation)
    }
}
#endif
