#if Txkit
import SwiftSyntax

/// A consumer's `weak var` of the legacy type, which `--apply` retypes to
/// the shim: a computed property over a weak reference the wrapper declares.
extension ConsumerRewriter {
    /// `C.Wrappers.Store.WeakReference(shim)`: the value of the stored
    /// property that replaced a `weak` one.
    func weakReferenceValue(_ shim: String) -> String {
        "\(wrapperType).\(ShimPlan.weakReferenceTypeName)(\(shim))"
    }

    /// Replaces `weak var store: Store?` with a computed property of the
    /// shim's optional type and the stored property behind it, a
    /// ``ShimPlan/weakReferenceTypeName`` (declared by the wrapper), which
    /// holds the production wrapper's instance weakly: the property reads
    /// `nil` once the instance is released, as it did; a test's mock is
    /// held strongly.
    ///
    /// - Returns: The stored property's name (`storeReference`).
    func replaceWeakProperty(
        _ variable: VariableDeclSyntax, binding: PatternBindingSyntax, in declaration: TypeDeclaration,
        edits: inout EditBuffer
    ) throws -> String {
        let name = binding.pattern.trimmedText
        let location = declaration.file.sourceLocation(of: binding)
        let legacyName = legacyName
        let refuse = { (reason: String) in
            Refusal(
                .cannotApply, at: location,
                "\(name) is a weak reference to \(legacyName), \(reason), and --apply rewrites a `weak var` of type "
                    + "\(legacyName)? alone in its declaration, without attributes or initial value",
                fix: "edit it by hand, then run again")
        }
        guard variable.bindings.count == 1 else { throw refuse("declared with others") }
        guard variable.attributes.isEmpty else { throw refuse("with attributes") }
        guard !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else {
            throw refuse("static")
        }
        guard let optional = binding.typeAnnotation?.type.as(OptionalTypeSyntax.self),
              optional.wrappedType.trimmedText == legacyName
        else { throw refuse("not declared \(legacyName)?") }
        if let value = binding.initializer?.value, !value.is(NilLiteralExprSyntax.self) {
            throw refuse("with an initial value")
        }
        let reference = name + "Reference"
        for other in plan.consumer.declarations {
            for item in other.memberBlock.members where item.decl.declares(reference) {
                throw refuse("and \(consumerName) already has a member named \(reference)")
            }
        }
        let indent = variable.indentation
        let modifiers = variable.modifiers.filter { $0.name.text != "weak" }.map(\.trimmedText)
        let type = "\(wrapperType).\(ShimPlan.weakReferenceTypeName)"
        edits.replace(variable, in: declaration.file, with: [
            (modifiers + ["var \(name): \(shimType)? {"]).joined(separator: " "),
            "\(indent)    get { \(reference).shim }",
            "\(indent)    set { \(reference) = \(type)(newValue) }",
            "\(indent)}",
            "\(indent)private var \(reference) = \(type)()",
        ].joined(separator: "\n"))
        return reference
    }
}
#endif
