/// The run state that sources read and write while they fetch (``FetchContext/runState``):
/// entries of their own scopes read from the store, entries to write with the
/// run's data, objects a source saw unchanged without delivering them, and the
/// entities whose fetch was not complete (so that `orphans: delete` leaves their
/// stored objects alone).
///
/// The store is opened on the first read, which runs on the run's store worker
/// (``RunStore``), off the cooperative pool. With `--full` (``RunOptions/full``)
/// every read finds nothing and each scope read is cleared at the write, so the
/// run's own entries replace what was stored.
///
/// ```swift
/// let validators = try await context.runState.entries(scope: "http")
/// var update = RunStateUpdate()
/// update.set(scope: "http", key: url, to: .string(etag))
/// context.runState.record(update)
/// ```
public final class SourceRunState: Sendable {
    /// What the sources share: everything but `full` changes as they fetch.
    private struct State {
        var cache: [String: [String: RunStateEntry]] = [:]
        var pending = RunStateUpdate()
        var seen: [String: [IdentityKey]] = [:]
        var incomplete: Set<String> = []
    }

    private let full: Bool
    /// The run's store; `nil` for state without one.
    private let store: RunStore?
    private let state = Locked(State())

    /// State over the run's `store`; `full` reads nothing.
    init(full: Bool, store: RunStore?) {
        self.full = full
        self.store = store
    }

    /// State without a store: reads find nothing, records are kept for nobody.
    public convenience init() {
        self.init(full: true, store: nil)
    }

    /// The stored entries of `scope` (none in a `--full` run), read once.
    ///
    /// - Throws: the store's errors.
    public func entries(scope: String) async throws -> [String: RunStateEntry] {
        if let entries = state.withLock({ $0.cache[scope] }) { return entries }
        var stored: [String: RunStateEntry] = [:]
        if !full, let store { stored = try await store.use { try $0.runState(scope: scope) } }
        return state.withLock { state in
            // Sources read concurrently: the first read kept is every source's.
            if let entries = state.cache[scope] { return entries }
            if full { state.pending.clear(scope: scope) }
            state.cache[scope] = stored
            return stored
        }
    }

    /// Entries to write with the run's data (later records win).
    public func record(_ update: RunStateUpdate) {
        state.withLock { $0.pending.merge(update) }
    }

    /// Objects of `entity` the source saw, unchanged since the last run, without delivering them
    /// (an HTTP `304`): kept from orphan deletion and counted unchanged.
    public func unchanged(entity: String, identities: [IdentityKey]) {
        state.withLock { $0.seen[entity, default: []] += identities }
    }

    /// Marks an entity's fetch as incomplete: this run's objects are not all it has (a Singer
    /// stream without `ACTIVATE_VERSION`), so none of its stored objects is an orphan.
    public func markIncomplete(_ entity: String) {
        _ = state.withLock { $0.incomplete.insert(entity) }
    }

    /// What to write with the run's data.
    var update: RunStateUpdate { state.withLock { $0.pending } }
    /// Objects seen unchanged, by entity.
    var unchangedIdentities: [String: [IdentityKey]] { state.withLock { $0.seen } }
    /// The entities marked incomplete.
    var incompleteEntities: Set<String> { state.withLock { $0.incomplete } }
}
