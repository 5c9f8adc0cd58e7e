/// One transaction that the store's small transactions join while it is open
/// (``SyncTransactions/batched(_:)``): the push journal's entries and the
/// acknowledgements of many requests commit together, one sync of the store
/// for all of them.
///
/// A write that throws inside the batch leaves it half done, so the whole
/// batch rolls back: the first such error is what ``SyncTransactions/batched(_:)``
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
