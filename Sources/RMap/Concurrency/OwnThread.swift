/// An actor on a thread of its own (a ``SerialWorker`` is its executor): work that blocks between
/// its awaits, such as a push's store work (plan, journal, acknowledgements) between its
/// requests, runs in ``run(_:)`` instead of on the cooperative pool. A `nonisolated(nonsending)`
/// function called there runs on the same thread; tasks it starts (a push's requests) still run
/// on the pool.
///
/// ```swift
/// let code = await OwnThread(label: "rmap.push").run { _ in await pushing(context) }
/// ```
package actor OwnThread {
    private let worker: SerialWorker

    /// Creates the actor and its thread, named `label`.
    package init(label: String) {
        worker = SerialWorker(label: label)
    }

    /// The worker runs the actor's jobs.
    package nonisolated var unownedExecutor: UnownedSerialExecutor { worker.asUnownedSerialExecutor() }

    /// True when the caller runs on the actor's thread.
    package nonisolated var isCurrent: Bool { worker.isCurrent }

    /// Runs `body` on the actor's thread.
    package func run<Value: Sendable>(_ body: @Sendable (isolated OwnThread) async -> Value) async -> Value {
        await body(self)
    }
}
