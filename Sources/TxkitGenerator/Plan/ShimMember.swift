#if Txkit
/// A member of a legacy type that a consumer uses, as its shim declares it.
struct ShimMember {
    /// The member as the shim declares it (specialized, for a generic
    /// member the shim cannot declare generic: see ``declared``).
    var legacy: IndexedMember
    /// The legacy member as written, when ``legacy`` is one of its
    /// specializations (`value(id:as:)` with `T` = `String`).
    var declared: IndexedMember?
    /// The TransactionKit type that replaces each legacy transaction
    /// parameter, by parameter index.
    var transactions: [Int: TransactionKind]
    /// The parameter sets the consumer's calls supply (sorted indices), so
    /// that defaulted parameters get overloads in an extension.
    var suppliedSets: Set<[Int]>
    /// For a property: whether the consumer writes it.
    var isWritten: Bool
    /// The name of the mock's `MockMethod` (for a property, the name both
    /// `get…` and `set…` derive from).
    var stubName = ""
    /// Whether the member comes from a legacy type (its transactions are
    /// bridged, so it throws); `false` for a protocol's own requirement,
    /// which a mock declares exactly as written.
    var isBridged = true
    /// How the read or write transaction was decided, for a bridged
    /// member that takes one.
    var decision: TransactionDecision?

    /// The doc comment lines that say which rule decided read or write.
    var decisionDocumentation: [String] {
        decision.map { ["///", $0.documentation] } ?? []
    }

    var takesTransaction: Bool { !transactions.isEmpty }

    /// `name(label:_:)`: the requirement's name, transactions unlabeled.
    var shimDisplayName: String {
        let labels = legacy.parameters.enumerated().map { index, parameter in
            (transactions[index] != nil && isBridged ? "_" : parameter.label ?? "_") + ":"
        }
        return "\(legacy.name)(\(labels.joined()))"
    }

    /// Whether the shim's requirement throws untyped errors: a bridged
    /// member always does (the bridge itself can throw).
    var shimThrowsClause: String? {
        if isBridged && takesTransaction { return "throws" }
        return legacy.throwsClause
    }

    var isRethrows: Bool { shimThrowsClause == "rethrows" }

    /// The shim's result type: `some P` becomes `any P` (a protocol
    /// requirement cannot return an opaque type).
    var resultType: String? {
        guard let result = legacy.resultType else { return nil }
        return result.hasPrefix("some ") ? "any " + result.dropFirst("some ".count) : result
    }

    /// The parameters a call passes besides the transaction, and that a
    /// mock records (closures cannot be stored once they are non-escaping).
    var recordedParameters: [(index: Int, parameter: IndexedParameter)] {
        legacy.parameters.enumerated().compactMap { index, parameter in
            transactions[index] == nil && !parameter.isClosure ? (index, parameter) : nil
        }
    }

    /// The shape of ``resultType``: as the legacy member's, but never
    /// opaque (`some P` became `any P`).
    var resultShape: TypeShape? {
        guard var shape = legacy.resultShape, legacy.resultType != nil else { return nil }
        shape.isOpaque = false
        return shape
    }

    /// Whether a type of this shape mentions one of the member's generic
    /// parameters (or is an opaque `some` type), so that a mock records it
    /// by description.
    func isGeneric(_ shape: TypeShape?) -> Bool {
        guard let shape else { return false }
        if shape.isOpaque { return true }
        let names = legacy.genericParameterNames
        return !names.isEmpty && shape.names.contains(where: names.contains)
    }
}
#endif
