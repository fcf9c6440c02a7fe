#if Txkit
import Foundation
import SwiftSyntax

extension SourceSet {
    /// The files that can mention `name`: those with a token spelled
    /// `name` (an identifier, keyword or operator; for `Outer.Inner`, one
    /// spelled `Inner`), in the order of ``files``.
    ///
    /// A search for references to a name (the calls of a type's
    /// initializers, of a method, a function reference) visits these
    /// files only: a file without such a token holds none, so the result
    /// is the one a walk of every file finds, in the same order.
    func filesMentioning(_ name: String) -> [SourceFile] {
        let token = name.split(separator: ".").last.map(String.init) ?? name
        return (mentionIndex[token] ?? []).map { files[$0] }
    }

    /// ``filesMentioning(_:)`` and the files at `paths`, in the order of
    /// ``files``.
    func filesMentioning(_ name: String, or paths: Set<String>) -> [SourceFile] {
        let token = name.split(separator: ".").last.map(String.init) ?? name
        let positions = Set(mentionIndex[token] ?? []).union(paths.compactMap { positionsByPath[$0] })
        return positions.sorted().map { files[$0] }
    }

    /// Name → positions in ``files`` of the files with a token of that
    /// text, ascending; each file's tokens are read on every core.
    static func buildMentionIndex(of files: [SourceFile]) -> [String: [Int]] {
        let names = files.concurrentMap { tokenNames(in: $0.tree) }
        var mentions: [String: [Int]] = [:]
        for (index, fileNames) in names.enumerated() {
            for name in fileNames {
                mentions[name, default: []].append(index)
            }
        }
        return mentions
    }

    /// The texts of the tokens that can name something in `tree`.
    private static func tokenNames(in tree: SourceFileSyntax) -> Set<String> {
        var names: Set<String> = []
        for token in tree.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .identifier, .keyword, .dollarIdentifier, .binaryOperator, .prefixOperator, .postfixOperator:
                names.insert(token.text)
            default:
                continue
            }
        }
        return names
    }
}
#endif
