/// A built-in store's older row primitives (``SyncBackend``), beside its SQL engine: what the
/// test suite's store readers use (runs, `diff`, `push`, the readers and the run state use the
/// engine, ``EngineStore``).
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
