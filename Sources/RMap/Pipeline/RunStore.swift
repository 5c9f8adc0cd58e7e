/// The store of one run, opened on first use: every call to it runs on one ``SerialWorker``,
/// so the pipeline and its sources, which share it, never block a thread of the cooperative
/// pool on the store's files or connection. The live session keeps one for its life, on the
/// worker that is its executor (``Pipeline/load(_:from:parents:into:)``).
///
/// ```swift
/// let store = RunStore { try registry.makeStore(config) }
/// let cursors = try await store.use { try $0.runState(scope: IncrementalCursors.scope) }
/// ```
package final class RunStore: Sendable {
    let worker: SerialWorker
    /// How to open the store, and the store once opened: used by jobs of `worker` only.
    let store: Confined<Slot>
    typealias Slot = (open: () throws -> any Store, opened: (any Store)?)

    /// A store that `open` opens on first use.
    init(open: @escaping () throws -> any Store) {
        worker = SerialWorker(label: "rmap.run.store")
        store = Confined((open, nil))
    }

    /// A store already open, whose calls run on `worker` (an actor's executor may be that worker).
    package init(_ opened: sending any Store, worker: SerialWorker) {
        self.worker = worker
        store = Confined(({ opened }, opened))
    }

    /// What `body` returns for the store, called on the worker by code already running there
    /// (an actor whose executor it is): the caller orders its calls with the worker's other jobs.
    package func onWorker<T>(_ body: (any Store) throws -> T) throws -> T {
        precondition(worker.isCurrent, "a run's store is used on its worker only")
        return try body(try Self.opened(store))
    }

    /// The store's SQL engine, called on the worker (``onWorker(_:)``).
    ///
    /// - Throws: the store's errors opening it.
    package func engineOnWorker() throws -> any SQLEngine {
        try onWorker { try $0.engine() }
    }

    /// What `body` returns for the store (opened first when this is its first use), run on the
    /// worker after the calls before it.
    func use<T: Sendable>(_ body: @escaping @Sendable (any Store) throws -> T) async throws -> T {
        try await worker.run { [store] in try body(try Self.opened(store)) }
    }

    static func opened(_ store: Confined<Slot>) throws -> any Store {
        if let opened = store.value.opened { return opened }
        let opened = try store.value.open()
        store.value.opened = opened
        return opened
    }
}

// MARK: - A streamed run

extension RunStore {
    /// Lets the store undo what opening it did (``Store/abandon()``): the run failed before it committed.
    func abandon() async {
        await worker.run { [store] in store.value.opened?.abandon() }
    }

    /// The store's engine and the run's merge over it, on the worker.
    func beginStaging(_ layout: StageLayout) async throws -> StagingChannel {
        let merge: Confined<RunMerge> = try await worker.run { [store] in
            let merge = RunMerge(engine: try Self.opened(store).engine(), layout: layout)
            try merge.prepare()
            return Confined(merge)
        }
        return StagingChannel(worker: worker, merge: merge)
    }
}
