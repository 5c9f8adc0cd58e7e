/// The store of one run, opened on first use: every call to it runs on one ``SerialWorker``,
/// so the pipeline and its sources, which share it, never block a thread of the cooperative
/// pool on the store's files or connection.
///
/// ```swift
/// let store = RunStore { try registry.makeStore(config) }
/// let stored = try await store.use { try $0.storedIdentities(schema: schema) }
/// ```
final class RunStore: Sendable {
    private let worker = SerialWorker(label: "rmap.run.store")
    /// How to open the store, and the store once opened: used by jobs of `worker` only, and by
    /// the write ``beginWrite(_:request:)`` begins, whose phases take their turn after them.
    private let store: Confined<Slot>
    private typealias Slot = (open: () throws -> any Store, opened: (any Store)?)

    /// A store that `open` opens on first use.
    init(open: @escaping () throws -> any Store) {
        store = Confined((open, nil))
    }

    /// What `body` returns for the store (opened first when this is its first use), run on the
    /// worker after the calls before it.
    func use<T: Sendable>(_ body: @escaping @Sendable (any Store) throws -> T) async throws -> T {
        try await worker.run { [store] in try body(try Self.opened(store)) }
    }

    /// Begins writing `graph` (``Store/beginWrite(_:request:)``), the store opened on the worker.
    func beginWrite(_ graph: ObjectGraph, request: WriteRequest) async throws -> any StoreWrite {
        let opened = try await worker.run { [store] in Confined(try Self.opened(store)) }
        return try await opened.value.beginWrite(graph, request: request)
    }

    private static func opened(_ store: Confined<Slot>) throws -> any Store {
        if let opened = store.value.opened { return opened }
        let opened = try store.value.open()
        store.value.opened = opened
        return opened
    }
}
