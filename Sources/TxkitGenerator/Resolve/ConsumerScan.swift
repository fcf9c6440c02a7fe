#if Txkit
import SwiftSyntax

/// What one consumer type does with some legacy types: the uses the scan
/// resolved, and every other place that names one of them.
struct ConsumerScan {
    /// A place that names a legacy type in a way the scan did not follow
    /// (a generic argument, a collection, a cast, a generic constraint).
    struct Reference: Equatable {
        var legacyType: String
        var location: SourceLocation
        /// The line, trimmed, for messages.
        var text: String
    }

    /// The legacy types the scan looked for.
    let legacyTypes: Set<String>
    var uses: [ConsumerUse] = []
    var unresolved: [Reference] = []

    /// Scans every declaration of `consumer` (its extensions in any file).
    /// References in generated files are not listed: they are the shims'.
    init(consumer: IndexedType, legacyTypes: Set<String>, index: SourceIndex, isLegacyTransaction: @escaping (String) -> Bool) {
        self.legacyTypes = legacyTypes
        let typer = ExpressionTyper(index: index, consumer: consumer.name)
        let stored = ConsumerScanner.storedPropertyTypes(of: consumer.declarations, typer: typer)
        let rewritable = ConsumerScanner.storedPropertyNames(
            of: consumer.declarations, consumer: consumer.name, legacyTypes: legacyTypes)
        // Made once for the consumer's declarations: a set of as many
        // lengths as legacy types (a thousand in the benchmark's corpus).
        let lengths = Set(legacyTypes.map(\.utf8.count))
        for declaration in consumer.declarations {
            let scanner = ConsumerScanner(
                consumer: consumer.name, legacyTypes: legacyTypes, legacyNameLengths: lengths,
                file: declaration.file, index: index,
                storedProperties: stored, rewritableProperties: rewritable, isLegacyTransaction: isLegacyTransaction)
            scanner.walk(declaration.memberBlock)
            uses += scanner.uses
            if declaration.file.generatedBy == nil {
                unresolved += Self.genericReferences(of: declaration, legacyTypes: legacyTypes)
                unresolved += Self.unresolvedReferences(
                    in: declaration, legacyTypes: legacyTypes, lengths: lengths, accounted: scanner.accounted)
            }
        }
    }

    /// The scan for `legacy` alone: its uses and references. Each use and
    /// reference depends on its own legacy type only, so this is what a
    /// scan for `[legacy]` finds.
    func restricted(to legacy: String) -> ConsumerScan {
        var scan = ConsumerScan(legacyTypes: [legacy])
        scan.uses = uses.filter { $0.legacyType == legacy }
        scan.unresolved = unresolved.filter { $0.legacyType == legacy }
        return scan
    }

    private init(legacyTypes: Set<String>) {
        self.legacyTypes = legacyTypes
    }

    /// The legacy names in a declaration's body the scanner did not account
    /// for, other than those of generated shims (`Shims.Legacy`…), nested
    /// types' bodies aside.
    private static func unresolvedReferences(
        in declaration: TypeDeclaration, legacyTypes: Set<String>, lengths: Set<Int>, accounted: Set<Int>
    ) -> [Reference] {
        var found: [Reference] = []
        var followsPeriod = false
        // A token's kind and text are made on each call (an identifier's
        // as a new String); its length is read from the tree: a token of
        // no legacy name's length (`lengths`) is skipped without either.
        for token in declaration.memberBlock.tokens(viewMode: .sourceAccurate) {
            let length = token.trimmedLength.utf8Length
            defer { followsPeriod = length == 1 && token.tokenKind == .period }
            guard lengths.contains(length), case .identifier = token.tokenKind, legacyTypes.contains(token.text),
                  !accounted.contains(token.positionAfterSkippingLeadingTrivia.utf8Offset)
            else { continue }
            if followsPeriod { continue }
            // `Legacy.self` (`belongsTo(Category.self)`, `decode(Event.self)`):
            // the type as a value, no use of its members.
            if let dot = token.nextToken(viewMode: .sourceAccurate), dot.tokenKind == .period,
               dot.nextToken(viewMode: .sourceAccurate)?.tokenKind == .keyword(.self) {
                continue
            }
            if Self.isInNestedType(token, below: declaration.memberBlock) || Self.isDeclaredName(token)
                || Self.qualifiesNestedType(token) { continue }
            found.append(Reference(
                legacyType: token.text,
                location: declaration.file.sourceLocation(of: token),
                text: Self.line(of: token)))
        }
        return found
    }

    /// The legacy names in the type's own generic parameters and `where`
    /// clause (`final class C<Store: Legacy>`): values of such a parameter
    /// are not typed as the legacy type.
    private static func genericReferences(of declaration: TypeDeclaration, legacyTypes: Set<String>) -> [Reference] {
        guard let decl = declaration.memberBlock.parent else { return [] }
        var found: [(any SyntaxProtocol)?] = []
        if let type = decl.as(ClassDeclSyntax.self) {
            found = [type.genericParameterClause, type.genericWhereClause]
        } else if let type = decl.as(StructDeclSyntax.self) {
            found = [type.genericParameterClause, type.genericWhereClause]
        } else if let type = decl.as(EnumDeclSyntax.self) {
            found = [type.genericParameterClause, type.genericWhereClause]
        } else if let type = decl.as(ActorDeclSyntax.self) {
            found = [type.genericParameterClause, type.genericWhereClause]
        } else if let type = decl.as(ExtensionDeclSyntax.self) {
            found = [type.genericWhereClause]
        }
        let clauses = found.compactMap { $0.map { Syntax(fromProtocol: $0) } }
        return clauses.flatMap { clause in
            clause.tokens(viewMode: .sourceAccurate).filter { legacyTypes.contains($0.text) }.map { token in
                Reference(
                    legacyType: token.text, location: declaration.file.sourceLocation(of: token),
                    text: clause.trimmedText)
            }
        }
    }

    /// `Legacy.Nested`, in a type or an expression: a type nested in the
    /// legacy type (its result or model types), not a use of the type.
    private static func qualifiesNestedType(_ token: TokenSyntax) -> Bool {
        guard let dot = token.nextToken(viewMode: .sourceAccurate), dot.tokenKind == .period,
              let member = dot.nextToken(viewMode: .sourceAccurate), case .identifier = member.tokenKind
        else { return false }
        return member.text.first?.isUppercase == true
    }

    /// Nested types are consumers of their own.
    private static func isInNestedType(_ token: TokenSyntax, below block: MemberBlockSyntax) -> Bool {
        var node = token.parent
        while let current = node, current.id != block.id {
            if current.is(ClassDeclSyntax.self) || current.is(StructDeclSyntax.self)
                || current.is(EnumDeclSyntax.self) || current.is(ActorDeclSyntax.self) {
                return true
            }
            node = current.parent
        }
        return false
    }

    /// A name being declared (`typealias Legacy = …`, a member named like
    /// the type), not a reference.
    private static func isDeclaredName(_ token: TokenSyntax) -> Bool {
        guard let parent = token.parent else { return false }
        if let alias = parent.as(TypeAliasDeclSyntax.self) { return alias.name.id == token.id }
        if let function = parent.as(FunctionDeclSyntax.self) { return function.name.id == token.id }
        if let pattern = parent.as(IdentifierPatternSyntax.self) { return pattern.identifier.id == token.id }
        return false
    }

    /// The trimmed source line around a token, at most 100 characters.
    private static func line(of token: TokenSyntax) -> String {
        var node = Syntax(token)
        while let parent = node.parent, !parent.is(CodeBlockItemSyntax.self), !parent.is(MemberBlockItemSyntax.self) {
            node = parent
        }
        let text = node.trimmedText.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return text.count > 100 ? String(text.prefix(99)) + "…" : text
    }
}
#endif
