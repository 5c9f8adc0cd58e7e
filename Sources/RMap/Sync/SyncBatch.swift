/// One transaction that the store's small transactions join while it is open
/// (``SyncStore/batched(_:)``): the push journal's entries and the
/// acknowledgements of many requests commit together, one sync of the store
/// for all of them.
///
/// A write that throws inside the batch leaves it half done, so the whole
/// batch rolls back: the first such error is what ``SyncStore/batched(_:)``
/// throws.
final class SyncBatch {
    private(set) var failure: (any Error)?
    /// True once the batch forgot the remembered payloads (once is enough for all its acknowledgements).
    var forgotPayloads = false

    /// Runs one of the store's transactions' bodies inside the batch.
    func join<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            if failure == nil { failure = error }
            throw error
        }
    }
}

extension SyncStore {
    /// Runs `body` in one transaction over the model's tables and the push journal, which the
    /// store's own write scopes inside it join instead of committing each.
    ///
    /// - Throws: the first error of a write inside the batch (the batch is rolled back then,
    ///   whatever `body` did with that error), or the commit's.
    func batched(_ body: () throws -> Void) throws {
        precondition(batch == nil, "batches do not nest")
        precondition(scope == nil, "a batch is a write scope of its own")
        let batch = SyncBatch()
        self.batch = batch
        scope = .write
        defer {
            self.batch = nil
            scope = nil
        }
        let engine = try engine
        try engine.transaction(.write) {
            try StoreSchema.ensure(sync.layout, on: engine)
            try StoreSchema.ensure(PushJournal.layout, on: engine)
            try body()
            if let failure = batch.failure { throw failure }
        }
    }
}
