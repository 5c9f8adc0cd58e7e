/// The run state that sources read and write while they fetch (``FetchContext/runState``):
/// entries of their own scopes read from the store, entries to write with the
/// run's data, objects a source saw unchanged without delivering them, and the
/// entities whose fetch was not complete (so that `orphans: delete` leaves their
/// stored objects alone).
///
/// The store is opened on the first read. With `--full` (``RunOptions/full``)
/// every read finds nothing and each scope read is cleared at the write, so the
/// run's own entries replace what was stored.
///
/// ```swift
/// let validators = try context.runState.entries(scope: "http")
/// var update = RunStateUpdate()
/// update.set(scope: "http", key: url, to: .string(etag))
/// context.runState.record(update)
/// ```
public final class SourceRunState: Sendable {
    /// What the sources share: everything but `full` changes as they fetch.
    private struct State {
        let open: () throws -> any Store
        var opened: (any Store)?
        var cache: [String: [String: RunStateEntry]] = [:]
        var pending = RunStateUpdate()
        var seen: [String: [IdentityKey]] = [:]
        var incomplete: Set<String> = []
    }

    private let full: Bool
    private let state: Locked<State>

    /// State over the store `open` opens (once, on the first read); `full` reads nothing.
    init(full: Bool, store: (any Store)?, open: @escaping () throws -> any Store) {
        self.full = full
        state = Locked(State(open: open, opened: store))
    }

    /// State without a store: reads find nothing, records are kept for nobody.
    public convenience init() {
        self.init(full: true, store: nil) { MemoryStore() }
    }

    /// The stored entries of `scope` (none in a `--full` run).
    ///
    /// - Throws: the store's errors.
    public func entries(scope: String) throws -> [String: RunStateEntry] {
        try state.withLock { state in
            if let entries = state.cache[scope] { return entries }
            var entries: [String: RunStateEntry] = [:]
            if full {
                state.pending.clear(scope: scope)
            } else {
                let store = try state.opened ?? state.open()
                state.opened = store
                entries = try store.runState(scope: scope)
            }
            state.cache[scope] = entries
            return entries
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
    /// The store a read opened, if any.
    var store: (any Store)? { state.withLock { $0.opened } }
}
