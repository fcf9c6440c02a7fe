#if Txkit
import Foundation
import SwiftSyntax

/// Every type declared or extended in a ``SourceSet``, by name, with its
/// members.
package final class SourceIndex {
    package let sources: SourceSet
    /// Types by simple name (`Outer.Inner` is found as `Inner` and as
    /// `Outer.Inner`).
    package internal(set) var types: [String: IndexedType] = [:]
    /// Type names in the order they were first seen.
    package private(set) var typeNames: [String] = []
    /// Type aliases declared anywhere in the sources: name → aliased type
    /// as written, and where.
    private(set) var typealiases: [String: (type: String, location: String)] = [:]
    /// Whether some file adopts a GRDB pool or queue (`SQLiteDB(adopting:`),
    /// read once: every consumer rewritten asks, and rendering every file's
    /// text per pair made `--apply` of all pairs quadratic.
    var adoptsAPool: Bool { adoptsAPoolOnce.value }
    private let adoptsAPoolOnce: ComputedOnce<Bool>
    /// The consumers' scans this run made for several legacy types at
    /// once (the inventory's, `shim --all`'s), which the plans of their
    /// pairs read.
    let consumerScans = ConsumerScanCache()

    /// Reads each file's types on every core, then adds them in the order
    /// of the files (members numbered across files in that order).
    package init(_ sources: SourceSet) {
        self.sources = sources
        adoptsAPoolOnce = ComputedOnce { [files = sources.files] in
            files.contains { $0.text.containsBytes("SQLiteDB(adopting:") }
        }
        let collected = sources.files.concurrentMap { file in
            let collector = TypeCollector(file: file, order: 0)
            collector.walk(file.tree)
            return (found: collector.found, typealiases: collector.typealiases, members: collector.order)
        }
        var order = 0
        for (file, collected) in zip(sources.files, collected) {
            for var found in collected.found {
                for position in found.members.indices {
                    found.members[position].order += order
                }
                add(found, file: file)
            }
            for (name, alias) in collected.typealiases where typealiases[name] == nil {
                typealiases[name] = alias
            }
            order += collected.members
        }
        qualifyNestedTypes()
        inheritMembers()
    }

    /// The type named `name`, or an error naming where it was looked for.
    ///
    /// - Throws: ``GeneratorError/typeNotFound(_:searched:)``, or
    ///   ``GeneratorError/ambiguousType(_:locations:)`` when types of that
    ///   name are declared in several modules (source folders): the
    ///   generator would not know which one the code means.
    package func type(named name: String) throws -> IndexedType {
        guard let type = types[name] else {
            throw GeneratorError.typeNotFound(name, searched: sources.roots)
        }
        let declarations = type.declarations.filter { !$0.isExtension }
        let modules = Set(declarations.map { Self.module(of: $0.file.path) })
        if modules.count > 1 {
            throw GeneratorError.ambiguousType(name, locations: declarations.map(\.location))
        }
        return type
    }

    /// The module a file belongs to, as SwiftPM lays packages out: the
    /// folder right under `Sources` (or `Tests`), else the file's folder.
    static func module(of path: String) -> String {
        let components = path.split(separator: "/").map(String.init)
        if let index = components.lastIndex(where: { $0 == "Sources" || $0 == "Tests" }), index + 2 < components.count {
            return components[...(index + 1)].joined(separator: "/")
        }
        return (path as NSString).deletingLastPathComponent
    }

    private func add(_ found: TypeCollector.Found, file: SourceFile) {
        for name in found.names {
            if types[name] == nil {
                types[name] = IndexedType(name: name, qualifiedName: found.names[0])
                types[name]!.index = self
                typeNames.append(name)
            }
            // In place: a copy out of `types` would copy every member of a
            // type extended in many files, once per extension.
            update(&types[name]!, with: found, file: file)
        }
    }

    private func update(_ type: inout IndexedType, with found: TypeCollector.Found, file: SourceFile) {
        if let kind = found.kind { type.kind = kind }
        type.members += found.members
        type.enumCases.formUnion(found.enumCases)
        if found.hasArgumentlessInit { type.hasArgumentlessInit = true }
        if let accessLevel = found.accessLevel { type.accessLevel = accessLevel }
        if !type.files.contains(file.path) { type.files.append(file.path) }
        for module in file.imports where !type.imports.contains(module) {
            type.imports.append(module)
        }
        type.declarations.append(
            TypeDeclaration(
                memberBlock: found.memberBlock, file: file, inherited: found.inherited,
                isExtension: found.kind == nil, location: found.location))
    }
}

/// Walks one file and collects each type declaration and extension with its
/// members (including those inside `#if` clauses, all clauses).
final class TypeCollector: SyntaxVisitor {
    struct Found {
        var names: [String]
        var kind: IndexedType.Kind?
        var members: [IndexedMember]
        var memberBlock: MemberBlockSyntax
        var inherited: [String]
        var hasArgumentlessInit: Bool
        var accessLevel: AccessLevel?
        var enumCases: [String]
        var location: SourceLocation
    }

    /// The declaration's access level; `open` counts as `public`, which is
    /// all generated code can say of it.
    static func accessLevel(_ modifiers: DeclModifierListSyntax) -> AccessLevel {
        explicitAccessLevel(modifiers) ?? .internal
    }

    /// The access level the modifiers spell (`private(set)` is not one),
    /// `open` counted as `public`; nil when they spell none.
    static func explicitAccessLevel(_ modifiers: DeclModifierListSyntax) -> AccessLevel? {
        for modifier in modifiers where modifier.detail == nil {
            guard let level = AccessLevel(rawValue: modifier.name.text) else { continue }
            return level == .open ? .public : level
        }
        return nil
    }

    let file: SourceFile
    var order: Int
    var found: [Found] = []
    var typealiases: [String: (type: String, location: String)] = [:]
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
        let extended = node.extendedType.trimmedText
        return record(extended, nil, node.memberBlock, node.inheritanceClause, node.modifiers, isExtension: true)
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { outerNames.removeLast() }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = (outerNames.suffix(1) + [node.name.text]).joined(separator: ".")
        typealiases[name] = (node.initializer.value.trimmedText, file.location(of: node.name))
        return .skipChildren
    }

    // Function bodies hold no type the generator shims.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    private func record(
        _ name: String,
        _ kind: IndexedType.Kind?,
        _ memberBlock: MemberBlockSyntax,
        _ inheritance: InheritanceClauseSyntax?,
        _ modifiers: DeclModifierListSyntax,
        isExtension: Bool = false
    ) -> SyntaxVisitorContinueKind {
        let location = file.sourceLocation(of: memberBlock.parent ?? Syntax(memberBlock))
        // `outerNames` holds qualified names: the innermost one is the scope.
        let qualified = isExtension ? name : (outerNames.suffix(1) + [name]).joined(separator: ".")
        outerNames.append(qualified)
        var names = [qualified]
        if let simple = qualified.split(separator: ".").last.map(String.init), simple != qualified {
            names.append(simple)
        }
        let reader = MemberReader(
            file: file, order: order,
            defaultAccess: isExtension ? Self.explicitAccessLevel(modifiers) ?? .internal : .internal)
        reader.read(memberBlock.members)
        order = reader.order
        found.append(Found(
            names: names, kind: kind, members: reader.members, memberBlock: memberBlock,
            inherited: inheritance?.inheritedTypes.map { $0.type.trimmedText } ?? [],
            hasArgumentlessInit: reader.hasArgumentlessInit,
            accessLevel: isExtension ? nil : Self.accessLevel(modifiers),
            enumCases: reader.enumCases,
            location: location))
        return .visitChildren
    }
}
#endif
