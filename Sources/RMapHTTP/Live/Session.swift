public import RMap

/// The library as a live data layer, after ActiveResourceKit's
/// `ARIncrementalStore`: objects are fetched when asked for, one request per
/// question, mapped by the model's rules into a store, and read back from it.
///
/// A query is one `GET` with its conditions, order and window as parameters;
/// relationships load on first access (a to-one through its foreign key, a
/// to-many through the destination's nested route, once per object); local
/// edits go to the store and ``save()`` pushes them with ``Pusher``'s
/// exactly-once push. Answers are written with the same three-way merge as
/// `rmap run`, so an attribute changed locally and not yet saved is not
/// overwritten by a later fetch. At most ``cacheLimit`` objects stay in memory
/// (least recently used first out); everything else, pending changes
/// included, lives in the store.
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
/// call at a time.
public actor Session {
    /// The model whose entities the session fetches and saves.
    public nonisolated let model: MappingModel
    /// The most objects held in memory.
    public nonisolated let cacheLimit: Int
    let store: any BackendStore
    let sync: SyncStore
    let schema: GraphSchema
    let layout: StoreLayout
    let registry: PluginRegistry
    let localOnly: [String: Set<String>]
    let pushTransport: (any HTTPTransport)?
    var cache: LRUCache<ObjectKey, LiveObject>
    /// The objects each loaded to-many relationship holds, by owner and relationship.
    var faults: [FaultKey: [ObjectKey]] = [:]
    private var inFlight: [String: Task<[ObjectKey], any Error>] = [:]
    /// Where the session's code runs: every store call is a job of this worker.
    private let worker = SerialWorker(label: "rmap.live.session")

    /// The session's executor: a serial worker off the cooperative pool, on which its store calls block.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { worker.asUnownedSerialExecutor() }

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - model: the mapping model; each fetched entity needs an `http` source.
    ///   - store: where objects live (SQLite, PostgreSQL, memory or JSON).
    ///   - cacheLimit: the most objects kept in memory (default 1000).
    ///   - localOnly: per entity, the attributes the server cannot filter by:
    ///     `where:` conditions on them are applied to the answer instead of sent.
    ///   - registry: the transformers the mapping uses (default: the built-in ones).
    ///   - pushTransport: the network for ``save()`` (default: libcurl with keep-alive, as `rmap push`,
    ///     at most 4 connections per site); tests inject faults here.
    public init(
        model: MappingModel, store: sending any BackendStore, cacheLimit: Int = 1_000,
        localOnly: [String: Set<String>] = [:], registry: PluginRegistry = .standard(),
        pushTransport: (any HTTPTransport)? = nil
    ) {
        self.model = model
        self.store = store
        self.cacheLimit = max(1, cacheLimit)
        self.localOnly = localOnly
        self.registry = registry
        self.pushTransport = pushTransport
        sync = SyncStore(store: store, model: model)
        schema = GraphSchema(model: model)
        layout = StoreLayout(schema: schema)
        cache = LRUCache(limit: cacheLimit)
    }

    /// How many objects are held in memory now (never more than ``cacheLimit``).
    public var cachedCount: Int { cache.count }

    // MARK: - Queries

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
        offset: Int? = nil, prefetch: [String] = []
    ) async throws -> [LiveObject] {
        let mapping = try self.mapping(entity)
        let query = try LiveQuery(
            mapping, conditions: conditions, sort: sort, limit: limit, offset: offset,
            localOnly: localOnly[entity] ?? [], model: model)
        let objects = try await run(query).filter { query.matches($0.values) }
        for path in prefetch { try await self.prefetch(path.split(separator: ".").map(String.init), from: objects) }
        return objects
    }

    /// The object of an entity with an identity: from memory, else the store, else `GET /people/7.json`.
    ///
    /// - Returns: `nil` when the object was deleted locally.
    public func object(_ entity: String, identity: [Value]) async throws -> LiveObject? {
        let mapping = try self.mapping(entity)
        let key = ObjectKey(root: model.root(of: mapping).name, identity: IdentityKey(identity))
        if let known = try read([key], fresh: false).first { return known }
        let path = "\(mapping.path)/\(identity.map { Template.segment(LiveQuery.text($0)) }.joined(separator: ","))"
        let query = try LiveQuery(object: mapping, path: path, model: model)
        return try await run(query).first { IdentityKey($0.identity) == key.identity }
    }

    /// Sends a query (or joins the same one in flight) and reads what it stored.
    private func run(_ query: LiveQuery) async throws -> [LiveObject] {
        let source = try HTTPSource(config: query.config, model: model)
        let url = source.url(for: query.entity, values: [:], model: model).absoluteString
        let family = Set(model.family(of: query.entity.name).map(\.name))
        let keys = try await coalesced(url) { session in
            try await session.load([query.entity], source: source, parents: [:])
        }
        return try read(keys.filter { family.contains($0.entity) }, fresh: true)
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

    /// Fetches `entities` with `source` (nested ones once per identity of `parents`), maps the answers
    /// by the model's rules and writes them to the store, merged three-way against the base.
    ///
    /// - Returns: every object the answers held, in the order they came.
    func load(_ entities: [EntityMapping], source: HTTPSource, parents: [String: [IdentityKey]]) async throws
        -> [ObjectKey]
    {
        let graph = ObjectGraph(schema: schema)
        let mapper = RecordMapper(graph: graph, transformers: registry.transformers)
        if !StoredIdentities.roots(in: schema).isEmpty {
            mapper.storedIdentities = try store.storedIdentities(schema: schema)
        }
        let sink = MappingSink(graph: graph, mapper: mapper)
        let context = FetchContext(
            model: model, deliver: { _ = try await sink.deliver($0) }, identities: { parents[$0] ?? [] },
            progress: { _ in })
        try await source.fetch(entities, context: context)
        _ = Connector(schema: schema).connect(graph)
        _ = try store.write(graph, request: WriteRequest())
        let keys = graph.allObjects.filter { !$0.identity.isIncomplete }.map { object in
            ObjectKey(root: schema.root(of: object.type).name, identity: object.identity, entity: object.type.name)
        }
        for key in keys { cache[key] = nil }
        return keys
    }

    // MARK: - Reading the store

    /// The objects of `keys` as stored (from memory unless `fresh`), in order; objects without a row are left out.
    func read(_ keys: [ObjectKey], fresh: Bool) throws -> [LiveObject] {
        var found: [ObjectKey: LiveObject] = [:]
        var missing: [String: [ObjectKey]] = [:]
        for key in keys {
            if !fresh, let cached = cache[key] {
                found[key] = cached
            } else {
                missing[key.root, default: []].append(key)
            }
        }
        if !missing.isEmpty {
            try store.backend.transaction(layout) {
                for (root, group) in missing {
                    guard let type = schema.type(named: root) else { continue }
                    let table = layout.table(of: type)
                    let states = try store.backend.fetch(table, identities: group.map(\.identity.values))
                    for key in group {
                        guard let row = states[key.identity]?.row else { continue }
                        found[key] = object(row, root: type, table: table)
                    }
                }
            }
        }
        return keys.compactMap { key in
            guard let object = found[key] else { return nil }
            cache[key] = object
            return object
        }
    }

    /// A stored row as an object of the entity its `type` column names.
    func object(_ row: [Value], root: EntityType, table: TableLayout) -> LiveObject {
        var entity = root.mapping
        if let column = table.discriminator, case .string(let value) = row[column] {
            let name = root.mapping.types[value] ?? value
            entity = schema.family(of: root).first { $0.name == name }?.mapping ?? entity
        }
        var values: [String: Value] = [:]
        for attribute in entity.attributes {
            if let column = table.columnIndex(attribute.column) { values[attribute.name] = row[column] }
        }
        return LiveObject(session: self, entity: entity.name, identity: table.identityValues(of: row), values: values)
    }

    func mapping(_ entity: String) throws(LiveError) -> EntityMapping {
        guard let mapping = model.entity(named: entity) else { throw LiveError.unknownEntity(entity, in: model) }
        return mapping
    }

    func key(of object: LiveObject) throws(LiveError) -> ObjectKey {
        let mapping = try mapping(object.entity)
        return ObjectKey(
            root: model.root(of: mapping).name, identity: IdentityKey(object.identity), entity: object.entity)
    }
}

/// An object's place in the session: its root entity and identity (and the entity it was read as).
struct ObjectKey: Sendable, Hashable {
    var root: String
    var identity: IdentityKey
    /// The entity, e.g. `CRMAdmin` in the `CRMPerson` family; not part of equality.
    var entity: String

    init(root: String, identity: IdentityKey, entity: String? = nil) {
        self.root = root
        self.identity = identity
        self.entity = entity ?? root
    }

    static func == (lhs: ObjectKey, rhs: ObjectKey) -> Bool { lhs.root == rhs.root && lhs.identity == rhs.identity }
    func hash(into hasher: inout Hasher) {
        hasher.combine(root)
        hasher.combine(identity)
    }
}

/// A to-many relationship of one object.
struct FaultKey: Sendable, Hashable {
    var owner: ObjectKey
    var relationship: String
}
