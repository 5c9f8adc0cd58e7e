/// Reads a store's objects by the model's names, with SQL on the store's engine: queries by
/// entity with conditions, order and a window, iterated a page at a time
/// (``ObjectQuery``), and relationships followed by query. The library's way to read what
/// `rmap run` (or a live session) stored, in GRDB's shape.
///
/// ```swift
/// let store = StoreReader(store: try SQLiteStore(path: "crm.sqlite"), model: model)
/// for try await person in store.objects(of: "CRMPerson").filter(["lastName": "Lovelace"]).order(.ascending("firstName")) {
///     let name: String? = try person["firstName"]
///     let projects = try await person.related("projects")
///     print(name ?? "", projects.count)
/// }
/// ```
///
/// Reads run on a worker thread of the reader's own, off Swift's cooperative pool, one at a time:
/// the engine is one connection. Each page is one statement, which sees one committed state of
/// the store; a run committing between two pages shows in the later one. A reader only reads:
/// a table the store does not have yet reads as empty. Memory holds a page, not the store.
public final class StoreReader: ObjectReading {
    /// The model whose entities the store holds.
    public let model: MappingModel
    let stored: StoredModel
    /// The worker that owns the engine.
    let worker = SerialWorker(label: "rmap.reader")
    private let slot: Confined<Slot>

    /// The store, its engine once opened, and the tables found in it.
    private struct Slot {
        let store: any Store
        /// The model's tables, loaded into the engine before the first read (``Store/load(_:)``).
        let layout: StoreLayout
        var engine: (any SQLEngine)?
        /// The tables found in it, and its holder columns found (`table.column`).
        var tables: Set<String> = []
    }

    /// Creates a reader of a store whose engine runs rmap's SQL (SQLite, PostgreSQL): the reader
    /// owns it from now on (its engine is opened at the first read).
    public init(store: sending any Store, model: MappingModel) {
        self.model = model
        stored = StoredModel(schema: GraphSchema(model: model))
        slot = Confined(Slot(store: store, layout: stored.layout))
    }

    /// The objects of `entity` (its sub-entities' included), as a query to narrow, order and iterate.
    public func objects(of entity: String) -> ObjectQuery {
        ObjectQuery(reader: self, request: ObjectRequest(target: .entity(entity)))
    }

    /// The objects of `entity` that meet `conditions`, in the order of `sort` (the store's when
    /// `nil`: the order rows were written in), the window `limit`/`offset` of them.
    ///
    /// - Throws: ``ReadError``, or the engine's errors.
    public func fetch(
        _ entity: String, where conditions: [String: QueryValue] = [:], sort: [SortKey]? = nil, limit: Int? = nil,
        offset: Int? = nil
    ) async throws -> [StoreObject] {
        var query = objects(of: entity).filter(conditions).order(sort ?? [])
        if limit != nil || offset != nil { query = query.limit(limit, offset: offset ?? 0) }
        return try await query.fetchAll()
    }

    /// The object of `entity` (or a sub-entity) with this identity; `nil` when the store has none.
    ///
    /// - Throws: ``ReadError``, or the engine's errors.
    public func object(_ entity: String, identity: [Value]) async throws -> StoreObject? {
        let type = try stored.type(named: entity)
        let table = stored.table(of: type)
        var conditions: [String: QueryValue] = [:]
        for (column, value) in zip(table.identity, identity) {
            guard case .attribute(let name) = table.roles[column] else { continue }
            conditions[name] = .equals(value)
        }
        return try await objects(of: entity).filter(conditions).limit(1).fetchAll().first
    }

    // MARK: - Pages

    /// One page of a request's objects.
    struct Page: Sendable {
        var objects: [StoreObject]
        /// The order values of the page's last row, where the next page starts; `nil` at the end.
        var next: [Value]?
    }

    /// The objects of `request` after the row whose order values are `after` (from the first
    /// when `nil`, skipping `offset`), at most `limit`, on the worker.
    func page(_ request: ObjectRequest, after: [Value]?, limit: Int, offset: Int) async throws -> Page {
        try await worker.run { [slot, stored, self] in
            let engine = try Self.engine(slot)
            var selection = try stored.select(request, dialect: engine.dialect)
            guard try Self.holds(selection.select, slot, engine) else { return Page(objects: [], next: nil) }
            if try !Self.holdsHolders(selection.select, slot, engine) {
                selection = try stored.select(request, dialect: engine.dialect, holders: false)
            }
            let (sql, parameters) = selection.select.sql(after: after, limit: limit, offset: offset)
            var page = Page(objects: [], next: nil)
            var rows = 0
            let width = selection.select.table.columns.count
            let position = stored.binding(of: selection.entity).table
            try engine.query(sql, parameters, types: selection.select.types) { values in
                rows += 1
                page.next = Array(values[selection.select.firstOrderValue...]) + [values[0]]
                let row = Array(values[1...width])
                guard case .int(let handle) = values[0], let type = stored.entity(ofRow: row, table: position) else {
                    return
                }
                page.objects.append(StoreObject(reader: self, type: type, handle: handle, row: row))
            }
            if rows < limit { page.next = nil }
            return page
        }
    }

    /// The engine, opened on first use.
    private static func engine(_ slot: Confined<Slot>) throws -> any SQLEngine {
        if let engine = slot.value.engine { return engine }
        try slot.value.store.load(slot.value.layout)
        let engine = try slot.value.store.engine()
        slot.value.engine = engine
        return engine
    }

    /// Whether the store has the holder columns `select` reads: a store no run of this version
    /// wrote has none yet.
    private static func holdsHolders(_ select: ObjectSelect, _ slot: Confined<Slot>, _ engine: any SQLEngine) throws
        -> Bool
    {
        for (table, column) in select.holderColumns where !slot.value.tables.contains("\(table).\(column)") {
            guard try engine.columns(of: table).contains(column) else { return false }
            slot.value.tables.insert("\(table).\(column)")
        }
        return true
    }

    /// Whether the store has the tables `select` reads (its table and joined tables).
    private static func holds(_ select: ObjectSelect, _ slot: Confined<Slot>, _ engine: any SQLEngine) throws -> Bool {
        for table in [select.table.name] + select.joinedTables where !slot.value.tables.contains(table) {
            guard !(try engine.columns(of: table)).isEmpty else { return false }
            slot.value.tables.insert(table)
        }
        return true
    }
}
