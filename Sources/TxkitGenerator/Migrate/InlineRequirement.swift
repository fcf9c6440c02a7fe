#if Txkit
/// One piece of a consumer's legacy data access that `txkit migrate`
/// moves into the consumer's `Database` shim: a requirement taking the
/// code's free variables and a TransactionKit transaction, whose wrapper
/// holds the code as it was written.
struct InlineRequirement: Equatable {
    /// A parameter: one of the code's free variables.
    struct Parameter: Equatable {
        var name: String
        var type: String
        /// What the consumer passes, when not the variable of that name (a
        /// closure that calls one of its methods).
        var argument: String? = nil
        /// The argument label, when it is not the name (`_`).
        var label: String? = nil

        var declaration: String { (label.map { $0 + " " } ?? "") + "\(name): \(type)" }
    }

    /// Whether it takes the transaction (a call of the app's holder that
    /// opens its own does not).
    var takesTransaction = true
    /// Whether it throws (every requirement that bridges does).
    var throwing = true
    /// Whether it is `async`: the code it holds awaits (`try await
    /// TaskStore.insert(…, transaction: db)` in an async method).
    var isAsync = false
    /// The app's holder type the wrapper calls (a method of it that opens
    /// its own transaction), which the wrapper then holds.
    var holder: String? = nil

    var name: String
    var parameters: [Parameter]
    /// `Void`, a type, or a tuple of the values the code leaves to the
    /// consumer (locals it declares, variables it changes).
    var resultType: String
    var kind: TransactionKind
    /// The wrapper's body, as lines, after the line that builds the legacy
    /// transaction: the consumer's code, verbatim (re-indented).
    var body: [String]
    /// The name the code gives the legacy transaction (`db`,
    /// `transaction`), which the wrapper declares.
    var legacyName: String
    /// The legacy transaction's type (`Database`, `WriteTx`).
    var legacyType: String
    /// What the doc comment says: where it comes from, in words.
    var summary: String

    /// `name(a:b:_:)`.
    var displayName: String {
        "\(name)(\(parameters.map { $0.name + ":" }.joined())\(takesTransaction ? "_:" : ""))"
    }

    /// The requirement as the shim protocol declares it.
    var signature: String {
        let declared = parameters.map(\.declaration) + (takesTransaction ? ["_ tx: \(kind.typeName)"] : [])
        let result = resultType == "Void" ? "" : " -> \(resultType)"
        let effects = (isAsync ? " async" : "") + (throwing ? " throws" : "")
        return "func \(name)(\(declared.joined(separator: ", ")))\(effects)\(result)"
    }

    /// The call the consumer makes instead of the code.
    func call(on shim: String, transaction: String) -> String {
        let arguments = parameters.map { "\($0.name): \($0.argument ?? $0.name)" } + (takesTransaction ? [transaction] : [])
        return "\(shim).\(name)(\(arguments.joined(separator: ", ")))"
    }

    /// Whether two pieces of code are the same requirement (the same code
    /// extracted twice is one requirement).
    func isSameCode(as other: InlineRequirement) -> Bool {
        parameters == other.parameters && resultType == other.resultType && body == other.body && isAsync == other.isAsync
            && legacyName == other.legacyName && legacyType == other.legacyType
    }
}
#endif
