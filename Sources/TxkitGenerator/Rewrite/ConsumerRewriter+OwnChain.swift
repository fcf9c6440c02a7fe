#if Txkit
import SwiftSyntax

/// Uses through a chain of constants that starts at one of the consumer's
/// own stored `let`s (`environment.contactStore`, where `environment` is
/// the consumer's `let` and `contactStore` a stored `let` of its type):
/// every evaluation gives the instance the consumer's initialization
/// fixed, so the shim property takes it there, after the assignment that
/// opens the chain, unless a test passes a mock.
extension ConsumerRewriter {
    /// Whether `text` (`environment.contactStore`, `self.` allowed) is a
    /// chain of stored `let`s from a stored `let` of the consumer to the
    /// legacy type.
    func isOwnImmutableChain(_ text: String) -> Bool {
        let links = ownChainLinks(text)
        guard links.count >= 2, let index = plan.consumer.index, let consumer = index.types[consumerName] else {
            return false
        }
        return isStoredLetChain(links[...], from: consumer, firstIsStatic: false, in: index)
    }

    /// The links of `text`, without a leading `self`.
    private func ownChainLinks(_ text: String) -> [String] {
        let links = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return links.first == "self" ? Array(links.dropFirst()) : links
    }

    /// Whether `links` name, from `type` on, stored `let`s (the first
    /// `static` when `firstIsStatic`) whose last one is of the legacy type.
    func isStoredLetChain(
        _ links: ArraySlice<String>, from type: IndexedType, firstIsStatic: Bool, in index: SourceIndex
    ) -> Bool {
        var type = type
        for (position, link) in links.enumerated() {
            guard !link.isEmpty, link.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                  let member = type.allMembers.first(where: {
                      $0.name == link && $0.isStatic == (firstIsStatic && position == 0)
                  }),
                  case .property(isSettable: false) = member.kind,
                  type.declarations.contains(where: { $0.memberBlock.declaresStoredLet(link) }),
                  let result = member.resultType.map(LegacyBodies.bareType)
            else { return false }
            if position == links.count - 1 { return result == legacyName }
            guard let next = index.types[result] else { return false }
            type = next
        }
        return false
    }

    /// Adds the shim property `name` for uses through `chain`, a chain
    /// from one of the consumer's stored `let`s: each designated
    /// initializer gets `name: Shim? = nil` and, after the assignment of
    /// the chain's first link, `self.name = name ?? production`.
    ///
    /// - Throws: A refusal when an initializer does not assign the first
    ///   link among the assignments that open its body.
    func addStoredProperty(_ name: String, fromOwnChain chain: String, edits: inout EditBuffer) throws {
        let links = ownChainLinks(chain)
        let path = links.joined(separator: ".")
        let service = "self." + path
        let production = plan.makesLegacyPerCall ? perCallProduction(service) : "\(wrapperType)(\(service))"
        for declaration in plan.consumer.declarations where declaration.memberBlock.parent?.is(ExtensionDeclSyntax.self) == false {
            for initializer in declaration.memberBlock.designatedInitializers {
                let leading = (initializer.body?.statements).map { Array($0).prefix(while: \.isAssignment) } ?? []
                let assignsFirstLink = leading.contains { statement in
                    let target = statement.item.as(SequenceExprSyntax.self)?.elements.first?.trimmedText
                    return target == links[0] || target == "self.\(links[0])"
                }
                guard assignsFirstLink else {
                    throw Refusal(
                        .cannotApply, at: declaration.file.sourceLocation(of: initializer),
                        "\(consumerName) reaches \(legacyName) through `\(path)`, and this initializer does not assign "
                            + "\(links[0]) among the assignments that open its body, after which --apply would set "
                            + "its shim property `\(name)` from `\(path)`",
                        fix: "assign \(links[0]) first in this initializer (or edit the uses by hand), then run again")
                }
            }
        }
        try addStoredProperty(name, optionalDefault: production, edits: &edits)
    }
}
#endif
