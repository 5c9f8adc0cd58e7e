/// A ``Store`` built on a ``SyncBackend``: the persist logic of a run's graph comes with the
/// conformance (the memory and JSON stores; `diff`, `push` and the readers run SQL on an
/// ``EngineStore``).
///
/// ```swift
/// final class MyStore: BackendStore {
///     let backend: any SyncBackend = MyBackend()
/// }
/// ```
public protocol BackendStore: Store {
    /// The engine's primitives.
    var backend: any SyncBackend { get }
}

extension BackendStore {
    /// Writes a run's graph with ``PersistWriter``.
    public func write(_ graph: ObjectGraph, request: WriteRequest) throws -> WriteReport {
        try PersistWriter(backend: backend).write(graph, request: request)
    }

    /// Begins writing a run's graph with ``PersistWriter``, the rows that hold no links first.
    public func beginWrite(_ graph: ObjectGraph, request: WriteRequest) async throws -> any StoreWrite {
        try await PersistWriter(backend: backend).beginWrite(graph, request: request)
    }

    /// The identities of every row and base row of the tables whose objects' newness matters.
    public func storedIdentities(schema: GraphSchema) throws -> StoredIdentities {
        let roots = StoredIdentities.roots(in: schema)
        guard !roots.isEmpty else { return StoredIdentities() }
        let layout = StoreLayout(schema: schema)
        // Read only: rolled back, so a dry run leaves no table behind.
        return try backend.transaction(layout, commit: false) {
            var byRoot: [Int: Set<IdentityKey>] = [:]
            for root in roots {
                let stored = try backend.identities(layout.table(of: root))
                byRoot[root.index] = Set(stored.map { IdentityKey($0.identity) })
            }
            return StoredIdentities(byRoot: byRoot)
        }
    }

    /// The entries of `scope` in the `_rmap_state` table.
    ///
    /// - Throws: ``PersistError`` when a stored value is not JSON, or the engine's errors.
    public func runState(scope: String) throws -> [String: RunStateEntry] {
        // Read only: rolled back, so a dry run leaves no table behind.
        try backend.transaction(RunStateTable.layout, commit: false) {
            try RunStateTable.read(scope: scope, from: backend)
        }
    }
}
