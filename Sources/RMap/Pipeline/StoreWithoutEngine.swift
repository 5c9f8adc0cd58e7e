/// A run whose model has stages or exec transformers, into a store that runs no SQL (a store
/// that is no ``EngineStore``: a plugin's own store; every built-in store has an engine). Stages
/// and exec transformers work on the run's staged records in the store's engine, so such a run
/// is refused before anything is fetched, rather than stored without them.
public struct StoreWithoutEngine: Error, CustomStringConvertible, Equatable {
    /// The store's plugin name, e.g. `json`.
    public let store: String
    /// What needs the engine: `stage 'name'`, `exec transformer of Entity.attribute`.
    public let needs: [String]

    public var description: String {
        "stages and exec transformers run in a store's SQL engine (sqlite, postgres, json, memory), and the store "
            + "'\(store)' has none (needed by \(needs.joined(separator: ", ")))"
    }
}
