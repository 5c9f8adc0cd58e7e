/// A persist plugin: keeps the run's objects and their base (the last server state of each
/// object) between runs, in the tables of an SQL engine (``SQLEngine``) that runs rmap's SQL: a
/// run stages, connects and merges in it (docs/architecture.md, "Data flow"), and the sync API
/// and readers query it (docs/plugins.md, "Stores").
public protocol Store: AnyObject {
    /// The store's engine: one connection, the same for the store's life.
    ///
    /// - Throws: the engine's errors opening it.
    func engine() throws -> any SQLEngine

    /// Undoes what opening the store did, after a run that committed nothing failed: a store file
    /// that opening created, and that holds nothing, is removed (no empty store is left behind).
    /// The default does nothing.
    func abandon()

    /// Makes the tables of `layout` readable on ``engine()``: a store that keeps its tables in
    /// another form and loads them into its engine when a schema change creates them (the `json`
    /// store, from its document) loads those it holds now. The sync API and the readers call it
    /// before their first statement; a program running SQL of its own on a `json` store's engine
    /// calls it first. The default does nothing: the engine's tables are the store's.
    ///
    /// - Throws: the store's errors loading them.
    func load(_ layout: StoreLayout) throws

    /// The run-state entries of `scope` (``RunStateEntry``), by key, as the last committed run
    /// left them; a run reads them before it fetches and writes its own with its data
    /// (``WriteRequest/runState``). The default reads them from the engine.
    func runState(scope: String) throws -> [String: RunStateEntry]
}

extension Store {
    /// Nothing to undo.
    public func abandon() {}

    /// Nothing to load.
    public func load(_ layout: StoreLayout) throws {}

    /// The entries of `scope` in the `_rmap_state` table, read by the engine in a transaction that
    /// only reads (none while the store has no such table: a dry run leaves none behind).
    ///
    /// - Throws: ``PersistError`` when a stored value is not JSON, or the engine's errors.
    public func runState(scope: String) throws -> [String: RunStateEntry] {
        try load(RunStateTable.layout)
        let engine = try engine()
        return try engine.transaction(.read, commit: false) { try RunStateTable.read(scope: scope, from: engine) }
    }
}

/// How a run wants its graph written.
public struct WriteRequest: Sendable {
    /// Do everything but commit.
    public var dryRun: Bool
    /// Entities whose fetch was complete (every page), so that `orphans: delete` may apply.
    public var completeEntities: Set<String>
    /// Run state written in the same transaction as the graph (cursors, validators, a Singer
    /// `STATE`), so that a run that fails or is rolled back advances none of it.
    public var runState: RunStateUpdate
    /// Objects a source saw unchanged without delivering them (an HTTP `304`), by entity: kept
    /// from orphan deletion and counted unchanged.
    public var unchangedIdentities: [String: [IdentityKey]] = [:]

    /// Creates a request.
    public init(dryRun: Bool = false, completeEntities: Set<String> = [], runState: RunStateUpdate = RunStateUpdate()) {
        self.dryRun = dryRun
        self.completeEntities = completeEntities
        self.runState = runState
    }
}

/// What a write did, per entity.
public struct WriteReport: Sendable, Equatable {
    /// Counts by entity name.
    public var entities: [String: EntityWriteCounts]

    /// Creates a report.
    public init(entities: [String: EntityWriteCounts] = [:]) {
        self.entities = entities
    }
}

/// What a write did to one entity's objects.
public struct EntityWriteCounts: Sendable, Equatable, Codable {
    /// Objects new to the store.
    public var inserted = 0
    /// Objects whose stored values changed.
    public var updated = 0
    /// Objects already stored as fetched.
    public var unchanged = 0
    /// Local objects deleted because a complete fetch no longer had them.
    public var orphansDeleted = 0
    /// Stored objects deleted by `delete_when`: a tombstone record, or a parent that no longer lists them.
    public var deleted = 0
    /// Records skipped as older than the stored object by `modified_by`.
    public var stale = 0

    /// Creates zero counts.
    public init() {}
}

/// Attributes that both the server and the local store changed since the base.
public struct ConflictError: Error, Sendable, CustomStringConvertible {
    /// One attribute in conflict.
    public struct Conflict: Sendable, Equatable {
        /// The entity.
        public var entity: String
        /// The object's identity.
        public var identity: String
        /// The attribute's name.
        public var attribute: String
        /// The last server value seen.
        public var base: String
        /// The local value.
        public var local: String
        /// The value just fetched.
        public var remote: String

        /// Creates a conflict.
        public init(entity: String, identity: String, attribute: String, base: String, local: String, remote: String) {
            self.entity = entity
            self.identity = identity
            self.attribute = attribute
            self.base = base
            self.local = local
            self.remote = remote
        }
    }

    /// Every conflict found.
    public var conflicts: [Conflict]

    /// Creates an error.
    public init(conflicts: [Conflict]) {
        self.conflicts = conflicts
    }

    /// One line a conflict, then how to resolve them.
    public var description: String {
        var entities: [String] = []
        for conflict in conflicts where !entities.contains(conflict.entity) { entities.append(conflict.entity) }
        let lines = conflicts.map {
            "  \($0.entity) \($0.identity) \($0.attribute): base \($0.base), local \($0.local), remote \($0.remote)"
        }
        let resolution =
            "to resolve, choose a side for \(entities.joined(separator: ", ")) in the mapping and run again: "
            + "'on_conflict: local' keeps the local values (rmap push sends them), 'on_conflict: remote' "
            + "takes the server's; or give the local row the server's value (rmap diff shows what is local)"
        let heading = "\(conflicts.count) conflict(s) between local edits and the server; nothing was written:"
        return ([heading] + lines + [resolution]).joined(separator: "\n")
    }
}
