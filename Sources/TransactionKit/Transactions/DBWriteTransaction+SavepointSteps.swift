// The one implementation of savepoints, shared by every backend: the public
// `inSavepoint` (DBWriteTransaction+Savepoints.swift) runs these steps; the
// backend's ``SavepointStorage`` only marks and restores its storage.
//
//     begin ──▶ block ──▶ .commit ──▶ release ─────────────▶ (kept)
//                 │           └──(release fails)──┐
//                 ├──▶ .rollback ──────────────────┴──▶ rollBack ──▶ (undone)
//                 └──▶ throws ──▶ rollBack, then the block's error
//
// What lives in the transaction rolls back with the storage: the hooks
// registered since the savepoint began (finalizations, a replaced
// finalization's previous block included, sync and async completions), the
// changes recorded for commit observers, and, through the tracer, the
// transaction log's hooks and mock calls.
extension DBReadTransaction {
    /// The hooks and recorded changes as a savepoint found them when it
    /// began: what its rollback restores. Copies of value types, so that
    /// taking one costs a few retains.
    struct SavepointMark {
        let finalizationKeys: [String]
        let finalizations: [String: (DBWriteTransaction) throws -> Void]
        let syncCompletions: [() -> Void]
        let asyncCompletions: [AsyncCompletion]
        let changes: DBChanges

        init(_ hooks: Hooks) {
            finalizationKeys = hooks.finalizationKeys
            finalizations = hooks.finalizations
            syncCompletions = hooks.syncCompletions
            asyncCompletions = hooks.asyncCompletions
            changes = hooks.changes
        }

        func restore(_ hooks: Hooks) {
            hooks.finalizationKeys = finalizationKeys
            hooks.finalizations = finalizations
            hooks.syncCompletions = syncCompletions
            hooks.asyncCompletions = asyncCompletions
            hooks.changes = changes
        }
    }
}

extension DBWriteTransaction {
    /// The number of savepoints open in this transaction.
    package var savepointDepth: Int {
        hooks?.savepointMarks.count ?? 0
    }

    // MARK: - Synchronous blocks

    /// Runs a savepoint: begins it, runs `block`, then releases it or rolls
    /// it back as the block says. When the block or the release throws, it
    /// rolls back and rethrows that error (the first one wins over a failed
    /// rollback, as in GRDB: the transaction is doomed then, and its
    /// `write` fails anyway).
    func runSavepoint(at callSite: CallSite, _ block: () throws -> DBSavepointCompletion) throws {
        try checkSavepointAllowed(at: callSite)
        let storage = scope.savepoints
        try storage.perform(.begin, in: self, at: callSite)
        didBeginSavepoint()
        do {
            if try block() == .commit {
                try storage.perform(.release, in: self, at: callSite)
                return didReleaseSavepoint()
            }
        } catch {
            didRollBackSavepoint()
            try? storage.perform(.rollBack, in: self, at: callSite)
            throw error
        }
        didRollBackSavepoint()
        try storage.perform(.rollBack, in: self, at: callSite)
    }

    // MARK: - Async blocks

    /// ``runSavepoint(at:_:)`` with an async block and async storage steps.
    func runSavepoint(at callSite: CallSite, _ block: () async throws -> DBSavepointCompletion) async throws {
        try checkSavepointAllowed(at: callSite)
        let storage = scope.savepoints
        try await storage.performAsync(.begin, in: self, at: callSite)
        didBeginSavepoint()
        do {
            if try await block() == .commit {
                try await storage.performAsync(.release, in: self, at: callSite)
                return didReleaseSavepoint()
            }
        } catch {
            didRollBackSavepoint()
            try? await storage.performAsync(.rollBack, in: self, at: callSite)
            throw error
        }
        didRollBackSavepoint()
        try await storage.performAsync(.rollBack, in: self, at: callSite)
    }

    // MARK: - Steps

    /// Reports a misuse unless the transaction is usable here.
    private func checkSavepointAllowed(at callSite: CallSite) throws(DBMisuseError) {
        if let misuse = checkActive(for: "inSavepoint", at: callSite) {
            throw misuse
        }
    }

    /// The storage began the savepoint: marks the hooks.
    private func didBeginSavepoint() {
        let hooks = existingHooks
        hooks.savepointMarks.append(SavepointMark(hooks))
        traceSavepointBegin()
    }

    /// The savepoint is released: what it registered now belongs to the
    /// enclosing savepoint, or to the transaction.
    private func didReleaseSavepoint() {
        // The hooks are gone when the transaction ended meanwhile (a
        // bridged transaction whose application transaction ended inside
        // the block): nothing is left to keep.
        _ = hooks?.savepointMarks.popLast()
        traceSavepointEnd(.commit)
    }

    /// The savepoint rolls back: the hooks and changes it recorded go.
    private func didRollBackSavepoint() {
        if let hooks, let mark = hooks.savepointMarks.popLast() {
            mark.restore(hooks)
        }
        traceSavepointEnd(.rollback)
    }
}
