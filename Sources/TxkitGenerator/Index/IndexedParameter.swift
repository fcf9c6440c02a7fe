#if Txkit
import Foundation

/// One parameter of an indexed member, as declared.
package struct IndexedParameter: Equatable, Sendable {
    /// The argument label; `nil` for `_`.
    package var label: String?
    /// The name inside the function.
    package var name: String
    /// The type as written, without `inout` and without the variadic `...`.
    package var type: String
    package var isInout: Bool
    package var isVariadic: Bool
    /// The default value's expression, if any.
    package var defaultValue: String?
    /// What the generator reasons about in ``type``, read from its syntax.
    package var shape: TypeShape

    /// Whether the parameter takes a closure (it is not recorded by mocks:
    /// a non-escaping closure cannot be stored).
    var isClosure: Bool {
        shape.mentionsFunction
    }

    /// The type as a parameter declaration spells it.
    var declaredType: String {
        (isInout ? "inout " : "") + type + (isVariadic ? "..." : "")
    }

    /// The type of the value inside the function (`[T]` for `T...`), for a
    /// mock's recorded arguments; attributes such as `@escaping` dropped.
    var valueType: String {
        var type = self.type
        // Foundation's `replacingOccurrences` goes through `NSString` on
        // Linux, and the renders ask for every parameter's value type.
        if type.contains("@" as Character) {
            for attribute in ["@escaping ", "@Sendable ", "@autoclosure "] {
                type = type.replacingOccurrences(of: attribute, with: "")
            }
        }
        return isVariadic ? "[\(type)]" : type
    }
}
#endif
