#if Txkit
import SwiftSyntax

extension ShimPlan {
    /// A generic member's specializations, one per set of types the
    /// consumer's calls pass, with the calls of each; `nil` when a call
    /// does not say its types.
    ///
    /// A shim leaves GRDB out, so it cannot declare
    /// `func value<T: DatabaseValueConvertible>(id: Int64, as type: T.Type, db: Database) -> T?`.
    /// It can declare what the consumer calls: with every call passing
    /// `String.self` for `type`, the requirement is
    /// `func value(id: Int64, as type: String.Type, _ tx: DBReadTransaction) -> String?`,
    /// and the wrapper's call of the legacy member infers `T` from `type`.
    /// Each generic parameter must be the type of a metatype parameter
    /// (`T.Type`), and each call must pass a literal metatype there
    /// (`X.self`).
    static func specializations(
        of member: IndexedMember, uses: [(ConsumerUse, Set<Int>)]
    ) -> [(IndexedMember, [(ConsumerUse, Set<Int>)])]? {
        let generics = member.genericParameterNames
        guard !generics.isEmpty else { return nil }
        var metatypeParameters: [String: Int] = [:]
        for generic in generics {
            guard let index = member.parameters.firstIndex(where: {
                $0.type.replacingOccurrences(of: " ", with: "") == generic + ".Type"
            }) else { return nil }
            metatypeParameters[generic] = index
        }
        var groups: [[String]: [(ConsumerUse, Set<Int>)]] = [:]
        for (use, supplied) in uses {
            guard case .call = use.form, let call = use.node.parent?.as(FunctionCallExprSyntax.self) else { return nil }
            let arguments = Array(call.arguments)
            let order = supplied.sorted()
            var types: [String] = []
            for generic in generics {
                guard let position = order.firstIndex(of: metatypeParameters[generic]!), position < arguments.count,
                      let metatype = arguments[position].expression.as(MemberAccessExprSyntax.self),
                      metatype.declName.baseName.text == "self", let base = metatype.base
                else { return nil }
                types.append(base.trimmedText)
            }
            groups[types, default: []].append((use, supplied))
        }
        return groups.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { types in
            let substitutions = Dictionary(uniqueKeysWithValues: zip(generics, types))
            var specialized = member
            specialized.genericParameters = ""
            specialized.genericParameterNames = []
            specialized.whereClause = ""
            specialized.parameters = member.parameters.map { parameter in
                var parameter = parameter
                parameter.type = substitute(substitutions, in: parameter.type)
                parameter.shape = TypeShape(parsing: parameter.declaredType)
                return parameter
            }
            specialized.resultType = member.resultType.map { substitute(substitutions, in: $0) }
            specialized.resultShape = specialized.resultType.map { TypeShape(parsing: $0) }
            return (specialized, groups[types]!)
        }
    }

    /// `type` with each generic parameter name replaced by its type
    /// (`T?` → `String?`, `[T]` → `[String]`), whole names only.
    private static func substitute(_ substitutions: [String: String], in type: String) -> String {
        var result = ""
        var current = ""
        for character in type + " " {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
                continue
            }
            // A name after a dot is a member (`Foo.T`), not the parameter.
            result += result.hasSuffix(".") ? current : (substitutions[current] ?? current)
            current = ""
            result.append(character)
        }
        return String(result.dropLast())
    }
}
#endif
