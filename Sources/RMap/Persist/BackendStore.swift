/// A ``Store`` built on a ``SyncBackend``: its run state comes with the conformance (runs,
/// `diff`, `push` and the readers run SQL on an ``EngineStore``).
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
