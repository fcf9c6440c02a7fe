#if Txkit
import SwiftSyntax

/// The bodies of a legacy type's methods, and what each executes on its
/// legacy transaction (rules `body` and `calls` of ``TransactionRule``).
///
/// It reads syntax only: a body that hands its transaction to code outside
/// the type, or stores it, says nothing (``BodyEffect/unknown``).
final class LegacyBodies {
    /// What a body does with its transaction.
    enum BodyEffect: Equatable {
        /// It writes: `reason` says how ("executes UPDATE"); `via` names the
        /// member of the type that does, when it is not this one.
        case writes(String, via: String?)
        /// It only reads, or never touches its transaction.
        case reads(String)
        /// Nothing the syntax can tell.
        case unknown
    }

    private let legacy: IndexedType
    private let isLegacyTransaction: (String) -> Bool
    /// Every method of the type (private ones too), by its name's location.
    private var functions: [String: FunctionDeclSyntax] = [:]
    /// The locations of the methods of each name that take a legacy
    /// transaction.
    private var locationsByName: [String: [String]] = [:]
    private var cache: [String: BodyEffect] = [:]
    /// The methods being analyzed, against recursion.
    private var inProgress: Set<String> = []

    init(legacy: IndexedType, isLegacyTransaction: @escaping (String) -> Bool) {
        self.legacy = legacy
        self.isLegacyTransaction = isLegacyTransaction
        for declaration in legacy.declarations {
            collect(declaration.memberBlock.members, file: declaration.file)
        }
    }

    private func collect(_ items: MemberBlockItemListSyntax, file: SourceFile) {
        for item in items {
            if let function = item.decl.as(FunctionDeclSyntax.self) {
                let location = file.location(of: function.name)
                functions[location] = function
                if !transactionParameters(of: function).isEmpty {
                    locationsByName[function.name.text, default: []].append(location)
                }
            } else if let ifConfig = item.decl.as(IfConfigDeclSyntax.self) {
                for clause in ifConfig.clauses {
                    if case let .decls(nested)? = clause.elements { collect(nested, file: file) }
                }
            }
        }
    }

    /// The names of a method's legacy transaction parameters.
    private func transactionParameters(of function: FunctionDeclSyntax) -> Set<String> {
        var names: Set<String> = []
        for parameter in function.signature.parameterClause.parameters
        where isLegacyTransaction(Self.bareType(parameter.type.trimmedText)) {
            names.insert((parameter.secondName ?? parameter.firstName).text)
        }
        return names
    }

    /// What `member`'s body does with its legacy transaction parameters.
    func effect(of member: IndexedMember) -> BodyEffect {
        effect(at: member.location)
    }

    private func effect(at location: String) -> BodyEffect {
        if let known = cache[location] { return known }
        guard let function = functions[location], let body = function.body, !inProgress.contains(location) else {
            return .unknown
        }
        inProgress.insert(location)
        defer { inProgress.remove(location) }

        let tracked = transactionParameters(of: function)
        let scanner = BodyScanner(tracked: tracked, memberNames: Set(locationsByName.keys), typeName: legacy.name)
        scanner.walk(body)

        var result: BodyEffect
        if let sql = scanner.writingSQL {
            result = .writes("executes \(sql)", via: nil)
        } else if let call = scanner.writingCall {
            result = .writes("calls \(call) on its transaction", via: nil)
        } else if let written = firstWritingCallee(scanner.calledMembers) {
            result = written
        } else if scanner.escapes || scanner.calledMembers.contains(where: { name in
            (locationsByName[name] ?? []).contains { effect(at: $0) == .unknown }
        }) {
            result = .unknown
        } else if let read = scanner.readingCall {
            result = .reads("only reads (\(read))")
        } else if !scanner.touchesTransaction && !tracked.isEmpty {
            result = .reads("never uses its transaction")
        } else if !scanner.calledMembers.isEmpty {
            result = .reads("only calls members that read")
        } else {
            result = .unknown
        }
        cache[location] = result
        return result
    }

    /// The first method called (with the transaction) that writes.
    private func firstWritingCallee(_ names: [String]) -> BodyEffect? {
        for name in names {
            for location in locationsByName[name] ?? [] {
                if case let .writes(reason, via) = effect(at: location) {
                    return .writes(reason, via: via ?? "\(legacy.name).\(Self.displayName(of: functions[location]!))")
                }
            }
        }
        return nil
    }

    /// `name(label:_:)`.
    private static func displayName(of function: FunctionDeclSyntax) -> String {
        let labels = function.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined()
        return "\(function.name.text)(\(labels))"
    }

    /// `T` of `T?`, `T!`, `inout T`.
    static func bareType(_ type: String) -> String {
        var type = type
        if type.hasPrefix("inout ") { type = String(type.dropFirst("inout ".count)) }
        while type.hasSuffix("?") || type.hasSuffix("!") { type = String(type.dropLast()) }
        return type
    }
}
#endif
