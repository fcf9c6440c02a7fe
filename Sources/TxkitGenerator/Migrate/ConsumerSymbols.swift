#if Txkit
import SwiftSyntax

/// The consumer's own members as its code sees them, private ones
/// included (the index keeps only what a shim may call).
struct ConsumerSymbols {
    struct Property {
        var type: String?
        var isStatic: Bool
        var isStored: Bool
    }

    struct Method {
        var resultType: String
        var isStatic: Bool
        var isPrivate: Bool
    }

    private(set) var properties: [String: Property] = [:]
    private(set) var methods: [String: [Method]] = [:]

    init(_ consumer: IndexedType) {
        for declaration in consumer.declarations {
            for item in declaration.memberBlock.members {
                if let variable = item.decl.as(VariableDeclSyntax.self) {
                    let isStatic = variable.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
                    for binding in variable.bindings {
                        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                        let isStored: Bool
                        if let accessors = binding.accessorBlock {
                            switch accessors.accessors {
                            case .getter: isStored = false
                            case let .accessors(list): isStored = !list.contains { $0.accessorSpecifier.text == "get" }
                            }
                        } else {
                            isStored = true
                        }
                        properties[name] = Property(
                            type: binding.typeAnnotation?.type.trimmedDescription, isStatic: isStatic, isStored: isStored)
                    }
                } else if let function = item.decl.as(FunctionDeclSyntax.self) {
                    let isStatic = function.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
                    let isPrivate = function.modifiers.contains { $0.name.text == "private" || $0.name.text == "fileprivate" }
                    methods[function.name.text, default: []].append(Method(
                        resultType: function.signature.returnClause?.type.trimmedDescription ?? "Void",
                        isStatic: isStatic, isPrivate: isPrivate))
                }
            }
        }
    }

    func isInstanceProperty(_ name: String) -> Bool {
        properties[name].map { !$0.isStatic } ?? false
    }

    func isInstanceMethod(_ name: String) -> Bool {
        methods[name]?.contains { !$0.isStatic } ?? false
    }
}
#endif
