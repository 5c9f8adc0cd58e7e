/// The `memory` store: the graph and its base kept in memory, for library use and tests.
///
/// It behaves as every store does (one transaction per write, three-way
/// merge, orphans), and forgets everything when released.
///
/// ```swift
/// let store = MemoryStore()
/// let report = try store.write(graph, request: WriteRequest())
/// ```
public final class MemoryStore: BackendStore {
    /// The store's primitives.
    public let backend: any SyncBackend = MemoryBackend()

    /// Creates an empty store.
    public init() {}
}
