#if Txkit
import Foundation

/// What `txkit convert` does to finish a migration the Good Way for one
/// legacy finder: every file it edits, writes and deletes, and every place
/// it leaves to a person.
///
/// ```swift
/// let generator = try Generator(root: ".", configuration: configuration, includingTests: true)
/// let conversion = try generator.convert(legacy: "LegacyUserFinder")
/// print(conversion.diff)
/// try generator.changes(applying: conversion).write()   // refused while there are blockers
/// ```
///
/// The finder's members that take a legacy transaction take
/// `DBReadTransaction` or `DBWriteTransaction` instead, in the same
/// position and unlabeled (as the shims of the Shortcut Way declared
/// them, so that code written against a shim keeps compiling). Their
/// bodies are kept: the first statement rebuilds the legacy transaction
/// through txkit.json's bridge, under the parameter's old name, so the SQL
/// stays as it is. A protocol (`DFinding`) declares what the callers use,
/// the finder conforms to it, and `txkit mock` writes its mock. Consumers
/// on a shim of the finder switch to the protocol, its mock and the finder
/// itself; those shims, wrappers and mocks are deleted and the consumers'
/// namespaces regenerated. Callers that pass a legacy transaction pass the
/// TransactionKit transaction it was bridged from, or txkit.json's
/// `reverseBridge`; the others are ``blockers``.
///
/// Computing a conversion writes nothing. Nothing is written while
/// ``blockers`` is not empty.
public struct LegacyConversion: Sendable {
    /// What happens to the finder's static members.
    public enum Statics: String, Sendable, CaseIterable {
        /// They stay static; the protocol reaches them through instance
        /// members that forward to them.
        case keep
        /// They become instance members; callers that used them go
        /// through a shared instance (`D.shared`).
        case instance
    }

    /// One converted member, for the summary.
    package struct Member: Equatable, Sendable {
        /// `name(label:_:)`, as it is declared after the conversion.
        package var name: String
        /// The transaction it takes after the conversion.
        package var transaction: TransactionKind
        /// The rule that decided read or write, and why.
        package var decision: String
        /// Whether the protocol declares it (a caller uses it).
        package var isInProtocol: Bool
    }

    /// The legacy finder.
    package var legacy: String
    /// The protocol it conforms to afterwards.
    package var protocolName: String
    /// The mock of the protocol.
    package var mockName: String
    /// The members that change.
    package var members: [Member]
    /// New and regenerated files: the protocol, the mock, the namespaces
    /// of consumers that keep other shims.
    package var files: [GeneratedFile]
    /// Edited files: the finder, its callers, the code and tests that
    /// used its shims.
    package var edits: [ConsumerEdit]
    /// Generated files the conversion retires, relative to the root.
    package var deletions: [String]
    /// The contents of ``deletions`` and the current contents of
    /// regenerated ``files`` (by path), for the diff.
    var originals: [String: String]
    /// How the diff names edited files (relative to the root).
    var displayPaths: [String: String] = [:]
    /// `Consumer → Legacy` pairs whose shims the conversion retires.
    package var retiredPairs: [String]
    /// Places left to a person; `--apply` refuses while there is one.
    package var blockers: [Refusal]

    /// The plan, as a unified diff per file: edits, new files, deletions.
    package var diff: String {
        fileDiffs.map(\.unified).joined(separator: "\n")
    }

    /// Lines removed plus lines added, over every file.
    public var changedLines: Int {
        fileDiffs.reduce(0) { total, file in
            total + file.diff.lines.filter { if case .same = $0 { false } else { true } }.count
        }
    }

    private var fileDiffs: [(diff: LineDiff, unified: String)] {
        var result: [(LineDiff, String)] = []
        for edit in edits {
            let diff = LineDiff(old: edit.original, new: edit.edited)
            let path = displayPaths[edit.path] ?? edit.path
            result.append((diff, diff.unified(path: path, old: "now", new: "after --apply")))
        }
        for file in files {
            if let old = originals[file.path] {
                guard old != file.contents else { continue }
                let diff = LineDiff(old: old, new: file.contents)
                result.append((diff, diff.unified(path: file.path, old: "now", new: "after --apply")))
            } else {
                result.append(Self.whole(file.contents, path: file.path, sign: "+", header: ("new file", "after --apply")))
            }
        }
        for path in deletions {
            result.append(Self.whole(originals[path] ?? "", path: path, sign: "-", header: ("now", "deleted by --apply")))
        }
        return result
    }

    /// A whole file added or removed, every line signed.
    private static func whole(
        _ text: String, path: String, sign: String, header: (String, String)
    ) -> (LineDiff, String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
        let diff = sign == "+" ? LineDiff(old: "", new: text) : LineDiff(old: text, new: "")
        let unified = ["--- \(path) (\(header.0))", "+++ \(path) (\(header.1))"] + lines.map { sign + $0 }
        return (diff, unified.joined(separator: "\n"))
    }

    init(
        legacy: String, protocolName: String, mockName: String, members: [Member], files: [GeneratedFile],
        edits: [ConsumerEdit], deletions: [String], originals: [String: String], retiredPairs: [String],
        blockers: [Refusal], displayPaths: [String: String] = [:]
    ) {
        self.legacy = legacy
        self.protocolName = protocolName
        self.mockName = mockName
        self.members = members
        self.files = files
        self.edits = edits
        self.deletions = deletions
        self.originals = originals
        self.retiredPairs = retiredPairs
        self.blockers = blockers
        self.displayPaths = displayPaths
    }
}
#endif
