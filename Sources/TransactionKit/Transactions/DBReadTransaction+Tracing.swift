// The transitions a ``TransactionTracer`` hears. Untraced transactions (every
// transaction of a database without a tracer) pay one `nil` check each.
extension DBReadTransaction {
    /// Starts tracing this transaction, which just opened.
    func trace(by tracer: any TransactionTracer, bridged: Bool = false, enclosing: TransactionTrace?) {
        trace = tracer.transactionDidOpen(self, bridged: bridged, enclosing: enclosing)
    }

    @inline(__always)
    func traceEnd(_ end: TransactionEnd) {
        if let trace, let tracer = trace.tracer {
            tracer.transaction(trace, didEnd: end)
        }
    }

    @inline(__always)
    func traceHook(_ hook: TransactionHookKind) {
        if let trace, let tracer = trace.tracer {
            tracer.transaction(trace, didAdd: hook)
        }
    }

    @inline(__always)
    func traceSavepointBegin() {
        if let trace, let tracer = trace.tracer {
            tracer.transactionDidBeginSavepoint(trace)
        }
    }

    @inline(__always)
    func traceSavepointEnd(_ completion: DBSavepointCompletion) {
        if let trace, let tracer = trace.tracer {
            tracer.transaction(trace, didEndSavepoint: completion)
        }
    }

    /// Tells the tracer that `read` or `write` throws `error`.
    func traceFailure(_ error: any Error) {
        guard let trace, let tracer = trace.tracer else { return }
        if let failure = error as? TransactionBlockFailure {
            // A rollback on purpose is no failure: `writeOrRollBack` returns.
            if failure.error is any RollBackOnPurposeMarker { return }
            tracer.transaction(trace, didFail: failure.error, blockThrew: true)
        } else {
            tracer.transaction(trace, didFail: error, blockThrew: false)
        }
    }
}
