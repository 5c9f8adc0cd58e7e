/// A ``Store`` built on a ``StoreBackend``: the persist logic and the reading
/// API come with the conformance.
///
/// ```swift
/// final class MyStore: BackendStore {
///     let backend: any StoreBackend = MyBackend()
/// }
/// ```
public protocol BackendStore: Store {
    /// The engine's primitives.
    var backend: any StoreBackend { get }
}

extension BackendStore {
    /// Writes a run's graph with ``PersistWriter``.
    public func write(_ graph: ObjectGraph, request: WriteRequest) throws -> WriteReport {
        try PersistWriter(backend: backend).write(graph, request: request)
    }

    /// Writes a run's graph with ``PersistWriter``, the rows that hold no links while `connecting` runs.
    public func write(_ graph: ObjectGraph, request: WriteRequest, connecting: () -> Void) throws -> WriteReport {
        try PersistWriter(backend: backend).write(graph, request: request, connecting: connecting)
    }

    /// The stored objects of a schema's entities, for `diff` and `push`.
    public func objects(schema: GraphSchema) -> PersistedObjects {
        PersistedObjects(backend: backend, schema: schema)
    }
}
