#if Txkit
import SwiftSyntax

extension IndexedType {
    /// The names of the `associatedtype`s a protocol declares, in its
    /// declaration or extensions; empty for other kinds.
    var associatedTypeNames: Set<String> {
        Set(declarations.flatMap { declaration in
            declaration.memberBlock.members.compactMap { $0.decl.as(AssociatedTypeDeclSyntax.self)?.name.text }
        })
    }
}

extension IndexedMember {
    /// Whether this member, declared by a type, implements `requirement`,
    /// declared by a protocol it adopts whose associated types are
    /// `associated`: same name, static or not, argument labels, and each
    /// parameter's type the requirement's or where the requirement names an
    /// associated type (`transaction: ReadTransaction`, which the type's
    /// `typealias ReadTransaction = AppReadTransaction` fixes).
    func witnesses(_ requirement: IndexedMember, associated: Set<String>) -> Bool {
        guard !associated.isEmpty, name == requirement.name, isStatic == requirement.isStatic,
              parameters.count == requirement.parameters.count
        else { return false }
        return zip(parameters, requirement.parameters).allSatisfy { own, required in
            own.label == required.label
                && (own.type == required.type || associated.contains(SourceIndex.coreTypeName(required.type)))
        }
    }
}
#endif
