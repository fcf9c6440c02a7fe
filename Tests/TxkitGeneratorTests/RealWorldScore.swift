#if Txkit
import Foundation
import TxkitGenerator

/// How the generator does on one pair of the real-world corpus, against
/// its oracle.
struct RealWorldScore: Sendable {
    /// What `--apply` did, computed in process (nothing is written).
    enum ApplyResult: Equatable, Sendable {
        case rewrote(files: Int)
        case refused(String)

        var isRefusal: Bool {
            if case .refused = self { true } else { false }
        }
    }

    var pair: RealWorldOracle.Pair
    /// The shim's requirements as generated, normalized; nil when the
    /// generator refused or failed.
    var generated: [String]?
    /// Why `shim` threw, if it did.
    var shimError: String?
    /// Oracle members the shim lacks (normalized requirements).
    var missed: [String] = []
    /// Shim members the oracle does not list.
    var extra: [String] = []
    /// Missed members that the shim has with the other transaction type.
    var wrongTransaction: [String] = []
    /// Whether `inventory` lists the pair as a use.
    var inventoryListsPair = false
    var apply: ApplyResult

    /// Whether the shim is exactly the oracle's (or refused where the
    /// oracle refuses).
    var shimIsExact: Bool {
        if pair.shim == "refuse" { return generated == nil }
        return generated != nil && missed.isEmpty && extra.isEmpty
    }

    /// Oracle members the shim has, written exactly.
    var membersFound: Int {
        pair.shim == "refuse" || generated == nil ? 0 : pair.members.count - missed.count
    }

    /// Whether `--apply` decided as the oracle says.
    var applyMatches: Bool {
        switch pair.apply {
        case .succeed: !apply.isRefusal
        case .refuse: apply.isRefusal
        case .either: true
        }
    }

    /// Runs the generator on the pair, in process.
    init(_ pair: RealWorldOracle.Pair, root: String) throws {
        self.pair = pair
        let generator = try Generator(root: root, configuration: GeneratorConfiguration.load(from: root))
        inventoryListsPair = generator.inventory().uses.contains { $0.consumer == pair.consumer && $0.type == pair.legacy }
        do {
            let edits = try generator.shim(consumer: pair.consumer, legacy: pair.legacy).edits.get()
            apply = .rewrote(files: edits.count)
        } catch {
            apply = .refused("\(error)")
        }
        do {
            let files = try generator.shim(consumer: pair.consumer, legacy: pair.legacy).files
            let shimName = "\(pair.consumer)_\(pair.legacy)Shim"
            guard let shim = files.first(where: { $0.path.hasSuffix("/\(shimName).swift") }) else {
                shimError = "no \(shimName).swift among the generated files"
                return
            }
            generated = Self.requirements(of: shimName, in: shim.contents).map(Self.normalized)
        } catch {
            shimError = "\(error)"
        }
        guard let generated, pair.shim == "generate" else { return }
        let expected = pair.members.map { Self.normalized($0.requirement) }
        missed = expected.filter { !generated.contains($0) }
        extra = generated.filter { !expected.contains($0) }
        wrongTransaction = missed.filter { requirement in
            let swapped = requirement.contains("DBWriteTransaction")
                ? requirement.replacingOccurrences(of: "DBWriteTransaction", with: "DBReadTransaction")
                : requirement.replacingOccurrences(of: "DBReadTransaction", with: "DBWriteTransaction")
            return generated.contains(swapped)
        }
    }

    /// The requirement lines of `protocol name` in a generated shim (doc
    /// comments and attributes left out).
    static func requirements(of name: String, in source: String) -> [String] {
        var lines: [String] = []
        var inside = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if !inside {
                inside = text.contains("protocol \(name)") && text.hasSuffix("{")
                continue
            }
            if text == "}" { break }
            if text.isEmpty || text.hasPrefix("//") || text.hasPrefix("@") { continue }
            lines.append(text)
        }
        return lines
    }

    /// A requirement with its parameters reduced to `label: Type` (internal
    /// names and default values do not change what conforms) and its
    /// spaces collapsed.
    static func normalized(_ requirement: String) -> String {
        let text = requirement.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard text.hasPrefix("func "), let open = text.firstIndex(of: "(") else { return text }
        var depth = 0
        var close: String.Index?
        var index = open
        while index < text.endIndex {
            switch text[index] {
            case "(", "[": depth += 1
            case ")", "]":
                depth -= 1
                if depth == 0 { close = index }
            default: break
            }
            if close != nil { break }
            index = text.index(after: index)
        }
        guard let close else { return text }
        let inner = String(text[text.index(after: open)..<close])
        let parameters = splitTopLevel(inner, on: ",").map { parameter -> String in
            let parts = splitTopLevel(parameter, on: ":", limit: 1)
            guard parts.count == 2 else { return parameter.trimmingCharacters(in: .whitespaces) }
            let words = parts[0].split(separator: " ")
            let label = words.first.map(String.init) ?? ""
            let type = splitTopLevel(parts[1], on: "=", limit: 1)[0].trimmingCharacters(in: .whitespaces)
            return "\(label): \(type)"
        }
        return String(text[..<open]) + "(" + parameters.joined(separator: ", ") + ")" + String(text[text.index(after: close)...])
    }

    /// `text` split on `separator` outside brackets, parentheses and angle
    /// brackets, at most `limit` times.
    private static func splitTopLevel(_ text: String, on separator: Character, limit: Int = .max) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var previous: Character = " "
        for character in text {
            switch character {
            case "(", "[", "<": depth += 1
            case ")", "]": depth -= 1
            case ">" where previous != "-": depth -= 1
            default: break
            }
            if character == separator && depth == 0 && parts.count < limit {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        parts.append(current)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
#endif
