/// A persist plugin: keeps the graph and the base (the last server state of
/// each object) between runs.
///
/// Implementers must write a whole run in one transaction (a failed or
/// interrupted run leaves the store exactly as before), treat a `nil` value
/// (missing key) as "keep what is stored" and `.null` as "clear", and keep
/// re-runs of the same input free of changes. `StoreBehaviourTests` holds
/// the behaviour every store must show.
public protocol Store: AnyObject {
    /// Writes a run's graph: schema sync, upsert merged three-way against the
    /// base, base update, orphans; with ``WriteRequest/dryRun`` everything but the commit.
    ///
    /// - Throws: ``ConflictError`` when a policy of `fail` meets conflicts
    ///   (nothing is written), or the store's own errors.
    func write(_ graph: ObjectGraph, request: WriteRequest) throws -> WriteReport

    /// Starts writing a run's graph as ``write(_:request:)`` does, in phases that the pipeline
    /// drives (``StoreWrite``): the write has begun (a transaction is open) when this returns.
    /// The default writes nothing until ``StoreWrite/finish()``, which calls ``write(_:request:)``.
    func beginWrite(_ graph: ObjectGraph, request: WriteRequest) async throws -> any StoreWrite

    /// The identities already stored for the roots of ``StoredIdentities/roots(in:)``, read
    /// before mapping so that defaults and `required` apply only to objects new to the store.
    /// The default holds none: every object is new to the store.
    func storedIdentities(schema: GraphSchema) throws -> StoredIdentities

    /// The run-state entries of `scope` (``RunStateEntry``), by key, as the last committed run
    /// left them; a run reads them before it fetches and writes its own with its data
    /// (``WriteRequest/runState``). The default holds none.
    func runState(scope: String) throws -> [String: RunStateEntry]
    /// Adds to `graph`, as destinations of its connections (``ObjectGraph/isStored(_:)``), the
    /// stored objects that its connections name and that no object of the run is, for the
    /// entities that `request` does not say were fetched completely; called before connecting.
    ///
    /// - Returns: false when the store cannot look objects up (the default): references to
    ///   entities the run did not fetch are then not reported as dangling.
    func addStoredDestinations(to graph: ObjectGraph, request: WriteRequest) throws -> Bool
}

extension Store {
    /// None: a store that cannot tell treats every object as new to it.
    public func storedIdentities(schema: GraphSchema) throws -> StoredIdentities { StoredIdentities() }

    /// None: a store that keeps no run state.
    public func runState(scope: String) throws -> [String: RunStateEntry] { [:] }
    /// None: a store that cannot look objects up adds nothing.
    public func addStoredDestinations(to graph: ObjectGraph, request: WriteRequest) throws -> Bool { false }

    public func beginWrite(_ graph: ObjectGraph, request: WriteRequest) async throws -> any StoreWrite {
        WholeWrite(store: self, graph: graph, request: request)
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
