#if Txkit
import SwiftSyntax

/// Legacy types whose instances are interchangeable: a consumer that
/// reaches one through several expressions (`Store()` in one method,
/// `Store.shared()` in another) can hold one shim property for all of
/// them.
extension ConsumerRewriter {
    /// Whether every instance of the legacy type behaves alike, as far as
    /// the sources say: a class or struct that declares no stored instance
    /// property, in its declaration or any extension, and inherits only
    /// from protocols of the sources or the standard library's markers (a
    /// superclass could hold state).
    var legacyIsStateless: Bool {
        guard let kind = plan.legacy.kind, kind == .class || kind == .struct else { return false }
        let markers: Set<String> = ["Sendable", "AnyObject", "Equatable", "Hashable"]
        let index = plan.consumer.index
        for name in plan.legacy.inherited {
            let bare = name.split(separator: " ").last.map(String.init) ?? name
            guard markers.contains(bare) || index?.types[bare]?.kind == .protocol else { return false }
        }
        return !plan.legacy.declarations.contains { $0.memberBlock.declaresStoredInstanceProperty }
    }

    /// The one expression the shim property of a stateless legacy type
    /// wraps in production, of the several the consumer used: the
    /// type's own initializer when it was one of them, else the first
    /// in order.
    func interchangeableService(of services: Set<String>) -> String? {
        guard services.count > 1, legacyIsStateless,
              !services.contains(where: isOwnImmutableChain) else { return nil }
        return services.contains("\(legacyName)()") ? "\(legacyName)()" : services.sorted().first
    }
}

extension MemberBlockSyntax {
    /// Whether it declares a stored property that is not `static` or
    /// `class`: no accessor, or only observers (`willSet`, `didSet`).
    var declaresStoredInstanceProperty: Bool {
        members.contains { item in
            guard let variable = item.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) })
            else { return false }
            return variable.bindings.contains { binding in
                guard let accessors = binding.accessorBlock?.accessors else { return true }
                guard case let .accessors(list) = accessors else { return false }
                return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
            }
        }
    }
}
#endif
