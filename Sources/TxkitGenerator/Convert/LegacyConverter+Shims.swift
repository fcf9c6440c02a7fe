#if Txkit
import Foundation
import SwiftSyntax

/// Consumers on a shim of the finder: they switch to its protocol, its
/// mock and the finder itself, and the shims of those pairs go.
extension LegacyConverter {
    /// A consumer whose shim of the finder the conversion retires.
    struct RetiredPair {
        var consumer: IndexedType
        /// The other legacy types the consumer keeps shims of.
        var remaining: [String]
    }

    /// The pairs a previous `txkit shim` generated for the finder.
    func retiredPairs() throws -> [RetiredPair] {
        let all = generator.generatedPairs()
        return try all.filter { $0.legacy == legacy.name }.map { pair in
            RetiredPair(
                consumer: try index.type(named: pair.consumer),
                remaining: all.filter { $0.consumer == pair.consumer && $0.legacy != legacy.name }.map(\.legacy).sorted())
        }
    }

    /// The shim, wrapper and mock of a pair, those that exist.
    func retiredFiles(of pair: RetiredPair) -> [String] {
        let layout = GeneratedLayout(configuration), consumer = pair.consumer.name
        return [
            layout.shimPath(consumer: consumer, legacy: legacy.name),
            layout.wrapperPath(consumer: consumer, legacy: legacy.name),
            layout.mockPath(consumer: consumer, legacy: legacy.name),
        ].filter { read($0) != nil }
    }

    /// The consumers' namespaces without the finder: regenerated, or
    /// deleted when it was their last pair.
    func namespaceChanges(pairs: [RetiredPair]) -> (files: [GeneratedFile], deletions: [String]) {
        var files: [GeneratedFile] = []
        var deletions: [String] = []
        let layout = GeneratedLayout(configuration)
        for pair in pairs {
            let consumer = pair.consumer.name
            let shortcuts = layout.shortcutsNamespacePath(consumer: consumer)
            let mocks = layout.mocksNamespacePath(consumer: consumer)
            if pair.remaining.isEmpty {
                deletions += [shortcuts, mocks].filter { read($0) != nil }
                continue
            }
            let access = min(configuration.accessLevel, pair.consumer.accessLevel).modifier
            let namespaces = NamespaceRenderer(consumer: consumer, legacies: pair.remaining)
            files.append(GeneratedFile(path: shortcuts, contents: namespaces.shortcuts(access: access)))
            files.append(GeneratedFile(path: mocks, contents: namespaces.mocks(imports: configuration.mockImports)))
        }
        return (files, deletions)
    }

    /// Rewrites every name of a retired shim, wrapper or mock in the code
    /// and tests a person wrote (doc comments too): `C.Shims.D` → the
    /// protocol, `C.Wrappers.D()` → `D()` (`C.Wrappers.D(x)` → `x`),
    /// `C.Mocks.D` → the protocol's mock.
    mutating func rewriteShimReferences(pairs: [RetiredPair]) {
        guard !pairs.isEmpty else { return }
        let consumers = pairs.map(\.consumer.name)
        let expressions = GeneratedLayout.referencePatterns(consumers: consumers, legacy: legacy.name).compactMap { rule in
            let replacement = switch rule.names {
            case .shim: protocolName
            case .wrapper: legacy.name
            case .mock: GeneratedLayout.protocolMockName(protocol: protocolName)
            }
            return (try? NSRegularExpression(pattern: rule.pattern)).map { ($0, replacement) }
        }
        let wrapperCall = try? NSRegularExpression(
            pattern: GeneratedLayout.wrapperConstructionPattern(consumers: consumers, legacy: legacy.name))
        let renames = stubRenames(pairs: pairs)
        for file in index.sources.files where file.generatedBy == nil {
            let text = file.tree.description
            guard text.contains(legacy.name) else { continue }
            let utf16 = text as NSString
            let whole = NSRange(location: 0, length: utf16.length)
            var covered: [Range<Int>] = []
            // Wrapper constructions first: `C.Wrappers.D(x)` → `x`.
            for match in wrapperCall?.matches(in: text, range: whole) ?? [] {
                guard let (start, open) = offsets(match.range, in: text),
                      let close = Self.matchingParenthesis(in: text, afterOpeningAt: open - 1)
                else { continue }
                let bytes = Array(text.utf8)
                let inner = String(decoding: bytes[open..<close], as: UTF8.self).trimmingWhitespace
                let replacement = inner.isEmpty ? "\(legacy.name)()" : inner
                edits.add(TextEdit(start: start, end: close + 1, replacement: replacement), in: file)
                covered.append(start..<(close + 1))
            }
            for (expression, replacement) in expressions {
                for match in expression.matches(in: text, range: whole) {
                    guard let (start, end) = offsets(match.range, in: text),
                          !covered.contains(where: { $0.contains(start) })
                    else { continue }
                    edits.add(TextEdit(start: start, end: end, replacement: replacement), in: file)
                    covered.append(start..<end)
                }
            }
            renameStubs(in: file, text: text, renames: renames, covered: covered)
        }
    }

    /// For each retired pair, the stubs of its mock whose names the
    /// protocol's mock spells otherwise (`user` → `userByID`, once the
    /// protocol has both `user` overloads).
    private func stubRenames(pairs: [RetiredPair]) -> [(mock: NSRegularExpression, renames: [String: String])] {
        var protocolStubs = protocolMembers.map(\.shimMember)
        ShimPlan.nameStubs(&protocolStubs)
        let newNames = Dictionary(protocolStubs.map { ($0.legacy.location, $0.stubName) }) { first, _ in first }
        return pairs.compactMap { pair in
            guard let plan = try? ShimPlan(consumer: pair.consumer, legacy: legacy, configuration: configuration)
            else { return nil }
            var renames: [String: String] = [:]
            for member in plan.members {
                guard case .function = member.legacy.kind, let new = newNames[member.legacy.location],
                      new != member.stubName
                else { continue }
                renames[member.stubName] = new
            }
            guard !renames.isEmpty,
                  let mock = try? NSRegularExpression(
                    pattern: GeneratedLayout.mockPattern(consumer: pair.consumer.name, legacy: legacy.name))
            else { return nil }
            return (mock, renames)
        }
    }

    /// Renames the stubs of a file that uses a retired pair's mock:
    /// `users.user.stub { … }` → `users.userByID.stub { … }`. Only where a
    /// `MockMethod` member follows, and only names every mock the file
    /// uses renames alike.
    private mutating func renameStubs(
        in file: SourceFile, text: String, renames: [(mock: NSRegularExpression, renames: [String: String])],
        covered: [Range<Int>]
    ) {
        let whole = NSRange(location: 0, length: (text as NSString).length)
        var merged: [String: String] = [:]
        var conflicting: Set<String> = []
        for entry in renames where entry.mock.firstMatch(in: text, range: whole) != nil {
            for (old, new) in entry.renames {
                if let existing = merged[old], existing != new { conflicting.insert(old) }
                merged[old] = new
            }
        }
        for old in conflicting { merged[old] = nil }
        guard !merged.isEmpty else { return }
        let names = merged.keys.sorted().map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        let api = "stub|stubWithTransaction|returns|fails|calls|callCount|isStubbed|reset|declaresChange|declaresRead"
        guard let expression = try? NSRegularExpression(pattern: "(?<=\\.)(\(names))(?=\\.(\(api))\\b)") else { return }
        for match in expression.matches(in: text, range: whole) {
            guard let (start, end) = offsets(match.range, in: text), !covered.contains(where: { $0.contains(start) }),
                  let range = Range(match.range, in: text), let new = merged[String(text[range])]
            else { continue }
            edits.add(TextEdit(start: start, end: end, replacement: new), in: file)
        }
    }

    /// UTF-8 offsets of an `NSRange` of `text`.
    private func offsets(_ range: NSRange, in text: String) -> (Int, Int)? {
        guard let bounds = Range(range, in: text) else { return nil }
        let start = text.utf8.distance(from: text.startIndex, to: bounds.lowerBound)
        return (start, start + text.utf8.distance(from: bounds.lowerBound, to: bounds.upperBound))
    }

    /// The UTF-8 offset of the `)` that closes the `(` at `open`, string
    /// literals skipped.
    static func matchingParenthesis(in text: String, afterOpeningAt open: Int) -> Int? {
        let bytes = Array(text.utf8)
        var depth = 0
        var inString = false
        var index = open
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "(") {
                depth += 1
            } else if byte == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }
}
#endif
