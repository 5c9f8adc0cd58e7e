/// The run's way to its store's engine once staging began: batches submitted from the mapping
/// task's thread (at most ``SerialWorker/pending`` ahead), phases awaited from the pipeline.
final class StagingChannel: Sendable {
    let worker: SerialWorker
    let merge: Confined<RunMerge>
    let failure = FirstFailure()

    init(worker: SerialWorker, merge: Confined<RunMerge>) {
        self.worker = worker
        self.merge = merge
    }

    /// Queues a batch for the engine; throws the first failure of an earlier one. Called off the
    /// cooperative pool (the mapping task's thread): it blocks while two batches wait.
    func submit(_ batch: StageBatch) throws {
        try failure.check()
        worker.submit { [merge, failure] in
            guard !failure.happened else { return }
            do { try merge.value.stage(batch) } catch { failure.record(error) }
        }
    }

    /// Rolls back what is open and drops the staging tables, on the worker.
    func close() async {
        await worker.run { [merge] in
            merge.value.rollback()
            merge.value.close()
        }
    }

    /// Runs `body` on the worker after every batch submitted; throws a batch's failure first.
    func run<T: Sendable>(_ body: @escaping @Sendable (RunMerge) throws -> T) async throws -> T {
        try await worker.run { [merge, failure] in
            try failure.check()
            return try body(merge.value)
        }
    }
}

extension StagingChannel {
    /// Runs `body` on the worker, blocking the calling thread (one of a ``DedicatedThread``'s,
    /// never the cooperative pool's) until it is done.
    func sync<T>(_ body: (RunMerge) throws -> T) throws -> T {
        try failure.check()
        return try worker.sync { try body(merge.value) }
    }
}
