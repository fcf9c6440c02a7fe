#if Txkit
import Foundation
import Testing
import TxkitGenerator

/// A small source tree written inline, and the generator over it.
struct InlineTree {
    let generator: Generator

    /// `files` are `(path, source)` pairs; the legacy transaction is
    /// `LegacyTransaction` unless `transaction` names another type.
    init(_ files: [(String, String)], transaction: String = "LegacyTransaction", bridge: String? = nil) throws {
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [
            .init(
                type: transaction, transaction: .read,
                bridge: bridge ?? "\(transaction)(try SQLiteDB.shimOnlyBridge($tx))"),
        ]
        generator = try Generator(
            configuration: configuration,
            sources: SourceSet(sources: files.map { (path: $0.0, text: $0.1) }))
    }

    /// The generated shim protocol of a pair.
    func shim(_ consumer: String, _ legacy: String) throws -> String {
        let files = try generator.shim(consumer: consumer, legacy: legacy).files
        return try #require(files.first { $0.path.hasSuffix("\(consumer)_\(legacy)Shim.swift") }).contents
    }

    /// The generated wrapper of a pair.
    func wrapper(_ consumer: String, _ legacy: String) throws -> String {
        let files = try generator.shim(consumer: consumer, legacy: legacy).files
        return try #require(files.first { $0.path.hasSuffix("\(consumer)_\(legacy)Wrapper.swift") }).contents
    }

    /// The requirement lines of a shim (`func …`, `var …`), trimmed.
    func requirements(_ consumer: String, _ legacy: String) throws -> [String] {
        let shim = try shim(consumer, legacy)
        // `: Sendable` only when the legacy type is.
        let declaration = shim.components(separatedBy: "protocol \(consumer)_\(legacy)Shim")[1]
        let body = declaration.drop { $0 != "{" }.dropFirst().components(separatedBy: "\n}")[0]
        return body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("func ") || $0.hasPrefix("var ") }
    }
}
#endif
