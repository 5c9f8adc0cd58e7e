import Foundation

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
public final class SourceRunState: @unchecked Sendable {
    private let lock = NSLock()
    private let full: Bool
    private let open: () throws -> any Store
    private var opened: (any Store)?
    private var cache: [String: [String: RunStateEntry]] = [:]
    private var pending = RunStateUpdate()
    private var seen: [String: [IdentityKey]] = [:]
    private var incomplete: Set<String> = []

    /// State over the store `open` opens (once, on the first read); `full` reads nothing.
    init(full: Bool, store: (any Store)?, open: @escaping () throws -> any Store) {
        self.full = full
        opened = store
        self.open = open
    }

    /// State without a store: reads find nothing, records are kept for nobody.
    public convenience init() {
        self.init(full: true, store: nil) { MemoryStore() }
    }

    /// The stored entries of `scope` (none in a `--full` run).
    ///
    /// - Throws: the store's errors.
    public func entries(scope: String) throws -> [String: RunStateEntry] {
        try lock.withLock {
            if let entries = cache[scope] { return entries }
            var entries: [String: RunStateEntry] = [:]
            if full {
                pending.clear(scope: scope)
            } else {
                let store = try opened ?? open()
                opened = store
                entries = try store.runState(scope: scope)
            }
            cache[scope] = entries
            return entries
        }
    }

    /// Entries to write with the run's data (later records win).
    public func record(_ update: RunStateUpdate) {
        lock.withLock { pending.merge(update) }
    }

    /// Objects of `entity` the source saw, unchanged since the last run, without delivering them
    /// (an HTTP `304`): kept from orphan deletion and counted unchanged.
    public func unchanged(entity: String, identities: [IdentityKey]) {
        lock.withLock { seen[entity, default: []] += identities }
    }

    /// Marks an entity's fetch as incomplete: this run's objects are not all it has (a Singer
    /// stream without `ACTIVATE_VERSION`), so none of its stored objects is an orphan.
    public func markIncomplete(_ entity: String) {
        _ = lock.withLock { incomplete.insert(entity) }
    }

    /// What to write with the run's data.
    var update: RunStateUpdate { lock.withLock { pending } }
    /// Objects seen unchanged, by entity.
    var unchangedIdentities: [String: [IdentityKey]] { lock.withLock { seen } }
    /// The entities marked incomplete.
    var incompleteEntities: Set<String> { lock.withLock { incomplete } }
    /// The store a read opened, if any.
    var store: (any Store)? { lock.withLock { opened } }
}
