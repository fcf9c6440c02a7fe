#if Txkit
import Foundation
import SwiftSyntax

/// The finder's callers: code that passes it a legacy transaction passes
/// the TransactionKit transaction instead.
extension LegacyConverter {
    /// Every use of the finder's members in the sources, by types other
    /// than the finder (through the finder or through a shim of it), with
    /// the member each means. Uses that fit no member are blockers.
    ///
    /// Every type is scanned, as `inventory` does: a type whose text never
    /// names the finder still uses it through a chain of another type's
    /// constants (`Services.shared.notes.note(…)`); left unconverted, that
    /// call would no longer build.
    mutating func scanCallers() -> [(ConsumerUse, IndexedMember)] {
        var found: [(ConsumerUse, IndexedMember)] = []
        var seen: Set<String> = []
        for name in index.typeNames {
            guard let type = index.types[name], type.qualifiedName != legacy.qualifiedName,
                  seen.insert(type.qualifiedName).inserted,
                  type.declarations.contains(where: { $0.file.generatedBy == nil })
            else { continue }
            let scan = ConsumerScan(
                consumer: type, legacyTypes: [legacy.name], index: index, isLegacyTransaction: isLegacyTransaction)
            for use in scan.uses where use.file.generatedBy == nil {
                do {
                    for (member, supplied) in try ShimPlan.resolve(use, in: legacy, isLegacyTransaction: isLegacyTransaction) {
                        found.append((use, member))
                        if !use.isThroughLegacyType {
                            suppliedSets[member.location, default: []].insert(supplied.sorted())
                        }
                        usedMembers.insert(member.location)
                        if case .property(_, true) = use.form { writtenMembers.insert(member.location) }
                    }
                } catch let refusal as Refusal {
                    blockers.append(block(use.location, refusal.reason, fix: refusal.fix, details: refusal.details))
                } catch {
                    blockers.append(block(use.location, "\(use.text): \(error)"))
                }
            }
        }
        return found
    }

    /// Why a member that takes a legacy transaction and that the finder
    /// inherits (from a superclass, or from an extension of a protocol it
    /// conforms to) cannot be converted with it, or nil for the finder's
    /// own members and the others.
    func inheritedMemberReason(_ member: IndexedMember) -> (reason: String, fix: String)? {
        guard !legacy.members.contains(member), member.parameters.contains(where: { isLegacyTransaction($0.type) })
        else { return nil }
        let declaring = index.types.values.first { $0.qualifiedName != legacy.qualifiedName && $0.members.contains(member) }
        if let declaring, declaring.kind == .protocol {
            return (
                "which \(legacy.name) gets from an extension of the protocol \(declaring.name) (\(member.location)), "
                    + "and txkit convert converts the finder's own members only",
                "move it into \(legacy.name) (or keep \(legacy.name) on the Shortcut Way), then run again")
        }
        return (
            "which \(legacy.name) inherits\(declaring.map { " from \($0.name)" } ?? "") (\(member.location))",
            "convert the type that declares it first")
    }

    /// Rewrites the calls that go through the finder itself (not through a
    /// shim, whose calls already have the converted form).
    mutating func rewriteCallers(uses: [(ConsumerUse, IndexedMember)]) {
        var done: Set<Int> = []
        for (use, member) in uses {
            // Through the finder or through a shim: the protocol has only
            // the finder's own members, so a call of an inherited one
            // would not compile after the conversion.
            if let (reason, fix) = inheritedMemberReason(member) {
                blockers.append(block(use.location, "\(use.text) uses \(member.displayName), " + reason, fix: fix))
                continue
            }
            guard use.isThroughLegacyType else { continue }
            guard let target = converted.first(where: { $0.member.location == member.location }),
                  case .call = use.form,
                  let call = use.node.parent?.as(FunctionCallExprSyntax.self),
                  done.insert(call.position.utf8Offset).inserted
            else { continue }
            if target.kind == .write, use.context == .read {
                blockers.append(block(
                    use.location,
                    "\(use.text) runs in a read transaction, but \(legacy.name).\(member.displayName) writes "
                        + "(\(target.decision.reason), rule: \(target.decision.rule.rawValue))",
                    fix: "call it in a write transaction, or list it in readMembers of txkit.json if it only reads"))
                continue
            }
            if statics == .instance, member.isStatic, case .type = use.base, let base = use.node.base {
                edits.replace(base, in: use.file, with: "\(base.trimmedText).shared")
            }
            guard let argument = transactionArgument(of: call, for: target) else {
                blockers.append(block(
                    use.location, "\(use.text) passes its legacy transaction in a trailing closure or not at all",
                    fix: "pass it as an argument, then run again"))
                continue
            }
            passTransaction(argument, call: call, target: target, file: use.file)
        }
    }

    /// Replaces a legacy transaction argument by the TransactionKit
    /// transaction: the one the configured bridge built it from (inline or
    /// in a local), else txkit.json's reverse bridge; else a blocker.
    mutating func passTransaction(
        _ argument: LabeledExprSyntax, call: FunctionCallExprSyntax, target: ConvertedMember, file: SourceFile
    ) {
        let expression = argument.expression
        let bridges = [target.legacyTransaction.bridge]
            + configuration.legacyTransactions.map(\.bridge).filter { $0 != target.legacyTransaction.bridge }
        let matchAny = { (candidate: ExprSyntax) in
            bridges.lazy.compactMap { TransactionArgument.match(candidate, bridge: $0) }.first
        }
        var replacement: String?
        if let inner = matchAny(expression) {
            replacement = inner
        } else if let reference = expression.as(DeclReferenceExprSyntax.self),
                  let local = BridgeLocal(named: reference.baseName.text, before: expression, file: file),
                  let value = local.item.item.as(VariableDeclSyntax.self)?.bindings.first?.initializer?.value,
                  let inner = matchAny(value) {
            BridgeLocal.record(reference, to: local, in: &bridgeLocals)
            replacement = inner
        } else if let reverse = target.kind == .write
                    ? target.legacyTransaction.reverseBridge?.write : target.legacyTransaction.reverseBridge?.read {
            replacement = reverse.replacingOccurrences(of: "$legacy", with: expression.trimmedText)
            edits.need(configuration.wrapperImports, in: file)
        }
        guard let replacement else {
            let step = TransactionArgument.receivedTransactionStep(
                expression, kind: target.kind, consumer: call.enclosingTypeName ?? "its caller",
                legacyTransaction: target.legacyTransaction)
            blockers.append(block(
                file.sourceLocation(of: call),
                "\(call.firstLine) passes `\(expression.trimmedText)`, a legacy transaction not built with a "
                    + "bridge of txkit.json, and \(target.legacyTransaction.type) has no reverseBridge for "
                    + "\(target.kind) in txkit.json",
                fix: step ?? "pass the TransactionKit transaction here by hand"))
            return
        }
        replaceArgument(argument, with: replacement, in: file)
        addTry(to: call, target: target, in: file)
    }

    /// Objective-C files under `folders` that name the finder: their calls
    /// cannot pass a TransactionKit transaction (Swift classes), so each
    /// line is a blocker.
    mutating func listObjectiveCCallers(in folders: [String]) {
        let manager = FileManager.default
        for folder in folders {
            // Hidden folders (.build, .git, .swiftpm) are never descended into.
            let base = URL(fileURLWithPath: folder)
            let urls = manager.enumerator(at: base, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])?
                .allObjects as? [URL] ?? []
            let paths = urls.map { url in
                url.path.hasPrefix(base.path + "/")
                    ? (folder as NSString).appendingPathComponent(String(url.path.dropFirst(base.path.count + 1)))
                    : url.path
            }.sorted()
            for path in paths where [".m", ".mm", ".h"].contains(where: path.hasSuffix) {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains(legacy.name) else { continue }
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where Self.names(legacy.name, in: line) {
                    blockers.append(block(
                        SourceLocation(path: path, line: number + 1),
                        "Objective-C uses \(legacy.name) here, and cannot pass a DBReadTransaction or "
                            + "DBWriteTransaction (Swift classes)",
                        fix: "give it a Swift entry point that bridges its transaction, or keep \(legacy.name) on the "
                            + "Shortcut Way"))
                }
            }
        }
    }

    /// Whether `line` names `type` as a whole word.
    private static func names(_ type: String, in line: Substring) -> Bool {
        var rest = line[...]
        while let range = rest.range(of: type) {
            let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
            let after = range.upperBound == line.endIndex ? nil : line[range.upperBound]
            let isWordCharacter = { (character: Character?) in character.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
            if !isWordCharacter(before) && !isWordCharacter(after) { return true }
            rest = line[range.upperBound...]
        }
        return false
    }

}
#endif
