#if Txkit
import SwiftSyntax

/// How declarations name the legacy type and its shim.
extension ConsumerScanner {
    /// `true` for the legacy type, `false` for its shim, `nil` otherwise.
    static func classify(_ type: String, consumer: String, legacy: String) -> Bool? {
        var type = type
        for prefix in ["any ", "some "] where type.hasPrefix(prefix) {
            type = String(type.dropFirst(prefix.count))
        }
        while type.hasSuffix("?") || type.hasSuffix("!") {
            type = String(type.dropLast())
        }
        if type.hasPrefix("(") && type.hasSuffix(")") {
            return classify(String(type.dropFirst().dropLast()), consumer: consumer, legacy: legacy)
        }
        if type == legacy { return true }
        if GeneratedLayout.isShim(type, consumer: consumer, legacy: legacy) {
            return false
        }
        return nil
    }

    /// The names a variable declaration binds to the legacy type or its
    /// shim, by annotation or by a `Legacy(…)` initial value.
    static func legacyBindings(
        _ variable: VariableDeclSyntax, consumer: String, legacy: String
    ) -> [(String, Bool)] {
        variable.bindings.compactMap { binding in
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
            if let type = binding.typeAnnotation?.type.trimmedText {
                return classify(type, consumer: consumer, legacy: legacy).map { (name, $0) }
            }
            if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
               call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == legacy {
                return (name, true)
            }
            return nil
        }
    }
}
#endif
