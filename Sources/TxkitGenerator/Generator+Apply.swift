#if Txkit
extension Generator {
    /// The edits `txkit shim --apply` makes so that `consumer` reaches
    /// `legacy` only through `consumer.Shims.legacy` (see the shim files
    /// ``shim(consumer:legacy:)`` generates); empty when it already does.
    ///
    /// - Throws: ``GeneratorError`` when a use cannot be rewritten (through
    ///   a local or parameter of the legacy type, or with a legacy
    ///   transaction not built by a configured bridge), or when the edits
    ///   would overlap; nothing is edited then.
    public func apply(consumer consumerName: String, legacy legacyName: String) throws -> [ConsumerEdit] {
        try apply(plan(consumer: consumerName, legacy: legacyName))
    }

    /// The rewrite stage: the edits that route `plan`'s consumer through
    /// its shim (the plan ``shim(_:alongside:)`` renders).
    package func apply(_ plan: ShimPlan) throws -> [ConsumerEdit] {
        var rewriter = ConsumerRewriter(plan: plan, configuration: configuration)
        return try rewriter.rewrite()
    }
}
#endif
