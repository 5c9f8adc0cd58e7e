/// The first error of jobs submitted to a ``SerialWorker`` without waiting (a run's staged batches):
/// later jobs are skipped, and the next call that waits throws it.
final class FirstFailure: Sendable {
    private let error = Locked<(any Error)?>(nil)

    /// True once a write failed.
    var happened: Bool { error.withLock { $0 != nil } }

    /// Keeps `error` (the first one only: later writes are skipped).
    func record(_ error: any Error) { self.error.withLock { $0 = $0 ?? error } }

    /// Throws the failure, if any.
    func check() throws { if let error = error.withLock({ $0 }) { throw error } }

    /// Forgets the failure (the transaction was rolled back).
    func reset() { error.withLock { $0 = nil } }
}
