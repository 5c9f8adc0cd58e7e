public import RMap

/// The library as a live data layer, after ActiveResourceKit's
/// `ARIncrementalStore`: objects are fetched when asked for, one request per
/// question, mapped by the model's rules into a store, and read back from it.
///
/// A query is one `GET` with its conditions, order and window as parameters;
/// relationships load on first access (a to-one through its foreign key, a
/// to-many through the destination's nested route, once per object); local
/// edits go to the store and ``save()`` pushes them with ``Pusher``'s
/// exactly-once push. Answers go through `rmap run`'s streamed run (``Pipeline``):
/// mapped into the store's engine, connected and merged three-way against the base,
/// so an attribute changed locally and not yet saved is not overwritten by a later
/// fetch. At most ``cacheLimit`` objects stay in memory (least recently used first
/// out); everything else, pending changes included, lives in the store.
///
/// ```swift
/// let session = Session(model: model, store: try SQLiteStore(path: "crm.sqlite"))
/// let people = try await session.fetch("CRMPerson", sort: [.ascending("lastName")], limit: 10)
/// for person in people {
///     let name: String? = try person["lastName"]
///     print(name ?? "", try await person.related("projects").count)
/// }
/// ```
///
/// The session is an actor: use it from any number of tasks. Fetches of the
/// same request in flight at once share one request. Its executor is a serial
/// worker thread of its own, not Swift's cooperative pool, so its store calls
/// (SQLite, PostgreSQL) block that thread only, and the store is used by one
/// call at a time; a fetch holds the store from its first answer to its commit,
/// and the session's other store calls take their turn after it.
public actor Session: ObjectReading {
    /// The model whose entities the session fetches and saves.
    public nonisolated let model: MappingModel
    /// The most objects held in memory.
    public nonisolated let cacheLimit: Int
    /// The store, on the session's worker.
    let store: RunStore
    let sync: SyncStore
    let stored: StoredModel
    let registry: PluginRegistry
    let localOnly: [String: Set<String>]
    /// How the session follows relationships.
    nonisolated let relationships: RelationshipFaults
    /// How the session writes local changes and saves them.
    nonisolated let changes: LiveChanges
    var cache: LRUCache<ObjectKey, LiveObject>
    /// The objects each loaded to-many relationship holds, by owner and relationship.
    var faults: [FaultKey: [ObjectKey]] = [:]
    private var inFlight: [String: Task<[ObjectKey], any Error>] = [:]
    /// Whether a load or a store call holds the store (``takeTurn()``), and who waits for it.
    private var turns = StoreTurns()
    /// Where the session's code runs: every store call is a job of this worker.
    private let worker: SerialWorker

    /// The session's executor: a serial worker off the cooperative pool, on which its store calls block.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { worker.asUnownedSerialExecutor() }

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - model: the mapping model; each fetched entity needs an `http` source.
    ///   - store: where objects live: a store with an SQL engine (SQLite, `SQLiteStore(path: ":memory:")`
    ///     for one in memory, PostgreSQL), which the session owns from now on.
    ///   - cacheLimit: the most objects kept in memory (default 1000).
    ///   - localOnly: per entity, the attributes the server cannot filter by:
    ///     `where:` conditions on them are applied to the answer instead of sent.
    ///   - registry: the transformers and stages the mapping uses (default: the built-in ones).
    ///   - pushTransport: the network for ``save()`` (default: libcurl with keep-alive, as `rmap push`,
    ///     at most 4 connections per site); tests inject faults here.
    public init(
        model: MappingModel, store: sending any Store, cacheLimit: Int = 1_000,
        localOnly: [String: Set<String>] = [:], registry: PluginRegistry = .standard(),
        pushTransport: (any HTTPTransport)? = nil
    ) {
        let worker = SerialWorker(label: "rmap.live.session")
        let runStore = RunStore(store, worker: worker)
        self.worker = worker
        self.store = runStore
        self.model = model
        self.cacheLimit = max(1, cacheLimit)
        self.localOnly = localOnly
        self.registry = registry
        relationships = RelationshipFaults(model: model)
        changes = LiveChanges(model: model, pushTransport: pushTransport)
        sync = SyncStore(model: model) { try runStore.engineOnWorker() }
        stored = StoredModel(schema: GraphSchema(model: model))
        cache = LRUCache(limit: cacheLimit)
    }

    /// How many objects are held in memory now (never more than ``cacheLimit``).
    public var cachedCount: Int { cache.count }

    // MARK: - Queries

    /// The objects of an entity that the server answers for one query, as the store holds them
    /// after the merge (``fetch(_:where:sort:limit:offset:prefetch:)`` without relationships to load).
    public func fetch(
        _ entity: String, where conditions: [String: QueryValue] = [:], sort: [SortKey]? = nil, limit: Int? = nil,
        offset: Int? = nil
    ) async throws -> [LiveObject] {
        try await fetch(entity, where: conditions, sort: sort, limit: limit, offset: offset, prefetch: [])
    }

    /// The objects of an entity that the server answers for one query, as the store holds them after the merge.
    ///
    /// One `GET` of the entity's index (`nested_path` filled from the condition
    /// on its placeholder) with the conditions as parameters, `order=` from
    /// `sort` (the entity's `sort:` when `nil`), and `limit`/`offset` when given;
    /// without them, every page as the entity's `paginate:` says. Conditions on
    /// ``init(model:store:cacheLimit:localOnly:registry:pushTransport:)``'s
    /// `localOnly` attributes are applied to the answer. Objects deleted
    /// locally and not saved yet are left out.
    ///
    /// - Parameters:
    ///   - entity: the entity, e.g. `CRMPerson`.
    ///   - conditions: attribute name -> value (`"Lovelace"`, `nil`, `.oneOf([1, 2])`).
    ///   - sort: the order (attribute names), e.g. `[.ascending("lastName")]`.
    ///   - limit: the most objects the server returns.
    ///   - offset: how many the server skips.
    ///   - prefetch: relationship key paths to load too, e.g. `["projects.tasks"]`.
    /// - Returns: the objects in the server's order.
    /// - Throws: ``LiveError`` for unknown names, `FetchError` for a failed request or
    ///   a body that is not JSON, `ConflictError` when the server and a local edit changed
    ///   the same attribute (and the entity's `on_conflict` is `fail`).
    public func fetch(
        _ entity: String, where conditions: [String: QueryValue] = [:], sort: [SortKey]? = nil, limit: Int? = nil,
        offset: Int? = nil, prefetch: [String]
    ) async throws -> [LiveObject] {
        let mapping = try self.mapping(entity)
        let query = try LiveQuery(
            mapping, conditions: conditions, sort: sort, limit: limit, offset: offset,
            localOnly: localOnly[entity] ?? [], model: model)
        let objects = try await run(query).filter { query.matches($0.values) }
        for path in prefetch {
            try await relationships.prefetch(path.split(separator: ".").map(String.init), from: objects, in: self)
        }
        return objects
    }

    /// The object of an entity with an identity: from memory, else the store, else `GET /people/7.json`.
    ///
    /// - Returns: `nil` when the object was deleted locally.
    public func object(_ entity: String, identity: [Value]) async throws -> LiveObject? {
        let mapping = try self.mapping(entity)
        let key = ObjectKey(root: model.root(of: mapping).name, identity: IdentityKey(identity))
        if let known = try await read([key], fresh: false).first { return known }
        let path = "\(mapping.path)/\(identity.map { Template.segment(LiveQuery.text($0)) }.joined(separator: ","))"
        let query = try LiveQuery(object: mapping, path: path, model: model)
        return try await run(query).first { IdentityKey($0.identity) == key.identity }
    }

    /// Sends a query (or joins the same one in flight) and reads what it stored of the query's entity.
    private func run(_ query: LiveQuery) async throws -> [LiveObject] {
        let source = try HTTPSource(config: query.config, model: model)
        let url = source.url(for: query.entity, values: [:], model: model).absoluteString
        let keys = try await coalesced(url) { session in
            try await session.load([query.entity], source: source, parents: [:])
        }
        return try await read(keys, fresh: true, family: query.entity.name)
    }

    // MARK: - Loading

    /// Runs `work` once for every caller asking with the same `key` while it is in flight.
    func coalesced(
        _ key: String, _ work: @escaping @Sendable (isolated Session) async throws -> [ObjectKey]
    ) async throws -> [ObjectKey] {
        if let running = inFlight[key] { return try await running.value }
        let task = Task { try await work(self) }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        return try await task.value
    }

    /// Fetches `entities` with `source` (nested ones once per identity of `parents`) into the store
    /// through the pipeline's streamed run (``Pipeline``): mapped by the model's rules, connected,
    /// and merged three-way against the base.
    ///
    /// - Returns: every object the answers held, in the order they came.
    func load(_ entities: [EntityMapping], source: HTTPSource, parents: [String: [IdentityKey]]) async throws
        -> [ObjectKey]
    {
        await takeTurn()
        defer { giveTurn() }
        let loaded = try await Pipeline(model: model, registry: registry).load(
            entities, from: source, parents: { parents[$0] ?? [] }, into: store)
        let keys = loaded.identities.sorted { $0.key < $1.key }.flatMap { root, identities in
            identities.filter { !$0.isIncomplete }.map { ObjectKey(root: root, identity: $0) }
        }
        for key in keys { cache[key] = nil }
        return keys
    }

    // MARK: - The store's turns

    /// Waits until the store is the caller's alone (``StoreTurns``). Every ``takeTurn()`` is
    /// followed by one ``giveTurn()``.
    func takeTurn() async {
        if turns.take() { return }
        await withCheckedContinuation { turns.wait($0) }
    }

    /// Hands the store to the next caller waiting for it, or frees it.
    func giveTurn() {
        turns.give()
    }

    func mapping(_ entity: String) throws(LiveError) -> EntityMapping {
        guard let mapping = model.entity(named: entity) else { throw LiveError.unknownEntity(entity, in: model) }
        return mapping
    }

    func key(of object: LiveObject) throws(LiveError) -> ObjectKey {
        let mapping = try mapping(object.entity)
        return ObjectKey(root: model.root(of: mapping).name, identity: IdentityKey(object.identity))
    }
}

/// An object's place in the session: its root entity and identity.
struct ObjectKey: Sendable, Hashable {
    var root: String
    var identity: IdentityKey
}

/// A to-many relationship of one object.
struct FaultKey: Sendable, Hashable {
    var owner: ObjectKey
    var relationship: String
}
