import Dispatch

/// A serial executor off Swift's cooperative thread pool: jobs run one at a time, in the
/// order they come, on a thread of their own, so they may hold non-`Sendable` state
/// (``Confined``) and block (a pipe, a file, a database engine) without starving tasks.
///
/// Async code enters through ``run(_:)``, which suspends until the job is done. Code already
/// off the pool (a ``DedicatedThread``) may enter through ``sync(_:)``, which blocks until
/// the job is done, or ``submit(_:)``, which queues it and blocks only while ``pending`` jobs
/// are queued (the back-pressure that keeps a producer at most that far ahead). No task on
/// the cooperative pool calls ``sync(_:)`` or ``submit(_:)``. An actor whose executor is a
/// worker (``asUnownedSerialExecutor()``) runs all its code on it, so it may call blocking
/// code (a store) directly: the live session does.
///
/// ```swift
/// let worker = SerialWorker(label: "rmap.persist.engine")
/// let count = try await worker.run { try engine.value.count() }
/// ```
package final class SerialWorker: Sendable {
    /// How many submitted jobs may wait before ``submit(_:)`` blocks.
    let pending: Int
    private let queue: DispatchQueue
    private let slots: DispatchSemaphore
    private let marker = DispatchSpecificKey<Void>()

    /// Creates a worker whose thread is named `label`.
    package init(label: String, pending: Int = 2) {
        self.pending = pending
        queue = DispatchQueue(label: label)
        slots = DispatchSemaphore(value: pending)
        queue.setSpecific(key: marker, value: ())
    }

    /// True when the caller runs on the worker.
    package var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) != nil }

    /// Runs `job` on the worker after the jobs before it; the caller suspends meanwhile.
    ///
    /// - Returns: what `job` returned, or rethrows what it threw.
    package func run<T: Sendable, Failure: Error>(_ job: @escaping @Sendable () throws(Failure) -> T)
        async throws(Failure) -> T
    {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result(catching: job)) }
        }
        return try result.get()
    }

    /// Runs `job` on the worker after the jobs before it, blocking the calling thread, which
    /// is not one of the cooperative pool's (nor the worker's own).
    func sync<T>(_ job: () throws -> T) rethrows -> T {
        try queue.sync(execute: job)
    }

    /// Queues `job` after the jobs before it without waiting for it, blocking the calling
    /// thread (not one of the cooperative pool's) while ``pending`` jobs wait already.
    func submit(_ job: @escaping @Sendable () -> Void) {
        slots.wait()
        queue.async { [slots] in
            defer { slots.signal() }
            job()
        }
    }
}

// MARK: - An actor's executor

extension SerialWorker: SerialExecutor {
    /// Runs an actor's job on the worker, after the jobs before it.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    /// The worker as the executor of an actor (its `unownedExecutor`).
    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Stops the program unless the caller runs on the worker.
    package func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
