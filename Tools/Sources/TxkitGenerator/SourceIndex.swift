import SwiftSyntax

/// Every type declared or extended in a ``SourceSet``, by name, with its
/// members.
public final class SourceIndex {
    public let sources: SourceSet
    /// Types by simple name (`Outer.Inner` is found as `Inner` and as
    /// `Outer.Inner`).
    public private(set) var types: [String: LegacyType] = [:]
    /// Type names in the order they were first seen.
    public private(set) var typeNames: [String] = []

    public init(_ sources: SourceSet) {
        self.sources = sources
        var order = 0
        for file in sources.files {
            let collector = TypeCollector(file: file, order: order)
            collector.walk(file.tree)
            order = collector.order
            for found in collector.found {
                add(found, file: file)
            }
        }
    }

    /// The type named `name`, or an error naming where it was looked for.
    public func type(named name: String) throws -> LegacyType {
        guard let type = types[name] else {
            throw GeneratorError.typeNotFound(name, searched: sources.roots)
        }
        return type
    }

    private func add(_ found: TypeCollector.Found, file: SourceFile) {
        for name in found.names {
            if types[name] == nil {
                types[name] = LegacyType(name: name)
                typeNames.append(name)
            }
            var type = types[name]!
            if let kind = found.kind { type.kind = kind }
            type.members += found.members
            if found.hasArgumentlessInit { type.hasArgumentlessInit = true }
            if let accessLevel = found.accessLevel { type.accessLevel = accessLevel }
            if !type.files.contains(file.path) { type.files.append(file.path) }
            for module in file.imports where !type.imports.contains(module) {
                type.imports.append(module)
            }
            type.declarations.append(
                TypeDeclaration(memberBlock: found.memberBlock, file: file, inherited: found.inherited))
            types[name] = type
        }
    }
}

/// Walks one file and collects each type declaration and extension with its
/// members (including those inside `#if` clauses, all clauses).
private final class TypeCollector: SyntaxVisitor {
    struct Found {
        var names: [String]
        var kind: LegacyType.Kind?
        var members: [LegacyMember]
        var memberBlock: MemberBlockSyntax
        var inherited: [String]
        var hasArgumentlessInit: Bool
        var accessLevel: String?
    }

    static func accessLevel(_ modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers where modifier.detail == nil {
            switch modifier.name.text {
            case "public", "open": return "public"
            case "package", "internal", "fileprivate", "private": return modifier.name.text
            default: continue
            }
        }
        return "internal"
    }

    let file: SourceFile
    var order: Int
    var found: [Found] = []
    private var outerNames: [String] = []

    init(file: SourceFile, order: Int) {
        self.file = file
        self.order = order
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, .class, node.memberBlock, node.inheritanceClause, node.modifiers)
    }
    override func visitPost(_ node: ClassDeclSyntax) { outerNames.removeLast() }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, .struct, node.memberBlock, node.inheritanceClause, node.modifiers)
    }
    override func visitPost(_ node: StructDeclSyntax) { outerNames.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, .enum, node.memberBlock, node.inheritanceClause, node.modifiers)
    }
    override func visitPost(_ node: EnumDeclSyntax) { outerNames.removeLast() }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, .actor, node.memberBlock, node.inheritanceClause, node.modifiers)
    }
    override func visitPost(_ node: ActorDeclSyntax) { outerNames.removeLast() }

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, .protocol, node.memberBlock, node.inheritanceClause, node.modifiers)
    }
    override func visitPost(_ node: ProtocolDeclSyntax) { outerNames.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        // `extension Outer.Inner` extends `Inner`, found under both names.
        let extended = node.extendedType.trimmedDescription
        return record(extended, nil, node.memberBlock, node.inheritanceClause, node.modifiers, isExtension: true)
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { outerNames.removeLast() }

    // Function bodies hold no type the generator shims.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    private func record(
        _ name: String,
        _ kind: LegacyType.Kind?,
        _ memberBlock: MemberBlockSyntax,
        _ inheritance: InheritanceClauseSyntax?,
        _ modifiers: DeclModifierListSyntax,
        isExtension: Bool = false
    ) -> SyntaxVisitorContinueKind {
        let qualified = isExtension ? name : (outerNames + [name]).joined(separator: ".")
        outerNames.append(qualified)
        var names = [qualified]
        if let simple = qualified.split(separator: ".").last.map(String.init), simple != qualified {
            names.append(simple)
        }
        let reader = MemberReader(file: file, order: order)
        reader.read(memberBlock.members)
        order = reader.order
        found.append(Found(
            names: names, kind: kind, members: reader.members, memberBlock: memberBlock,
            inherited: inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? [],
            hasArgumentlessInit: reader.hasArgumentlessInit,
            accessLevel: isExtension ? nil : Self.accessLevel(modifiers)))
        return .visitChildren
    }
}
