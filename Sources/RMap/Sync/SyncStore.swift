import Foundation

/// The library's sync API over a store: finds local changes, plans the
/// requests that send them back, edits objects (change, insert, delete), and
/// records what the server acknowledged.
///
/// ```swift
/// let sync = SyncStore(store: try SQLiteStore(path: "crm.sqlite"), model: model)
/// let ada = try sync.objects(of: "CRMPerson", where: ["id": 1])[0]
/// try sync.update(ada, ["email": .string("ada@lovelace.org")])
/// print(try sync.plan().text)   // PUT /people/1.json {"person":{"email":"ada@lovelace.org"}}
/// ```
///
/// It runs rmap's SQL on the store's engine (``Store``): `diff` reads the rows that can
/// differ from their base and never a whole table, and each edit is one statement. Every method
/// runs in its own small transaction, or joins the scope it is called in (``read(_:)``,
/// ``write(_:)``): reads take no write lock and do not check the schema. A `SyncStore` is not
/// `Sendable`: use it from one thread at a time (the store's engine is one connection).
public final class SyncStore {
    /// The model whose entities the store holds.
    public let model: MappingModel
    let sync: SyncSchema
    /// The transactions its methods run in, on the engine opened at the first call.
    let transactions: SyncTransactions

    /// Creates the API over a store whose engine runs rmap's SQL (SQLite, PostgreSQL, and the
    /// memory and JSON stores' SQLite); the engine is opened, and the store's tables of the model
    /// and of rmap's own state loaded (``Store/load(_:)``), at the first call.
    public convenience init(store: any Store, model: MappingModel) {
        self.init(model: model) {
            for layout in [StoreLayout(schema: GraphSchema(model: model)), RunStateTable.layout, PushJournal.layout] {
                try store.load(layout)
            }
            return try store.engine()
        }
    }

    /// Creates the API over an engine (one connection, which the API then uses alone).
    public convenience init(engine: any SQLEngine, model: MappingModel) {
        self.init(model: model) { engine }
    }

    /// Creates the API over the engine `open` gives at the first call (one connection, which the
    /// API then uses alone).
    package init(model: MappingModel, open: @escaping () throws -> any SQLEngine) {
        self.model = model
        sync = SyncSchema(schema: GraphSchema(model: model))
        transactions = SyncTransactions(layout: sync.layout, open: open)
    }

    /// The store's engine, opened on first use.
    var engine: any SQLEngine { get throws { try transactions.engine } }
    /// The push journal's entries, as a push reads and writes them.
    var inFlight: InFlightRequests { InFlightRequests(sync: sync, transactions: transactions) }
    /// What the store writes when the server accepts a request.
    var acknowledgement: PushAcknowledgement { PushAcknowledgement(sync: sync, transactions: transactions) }
    private var edits: LocalEdits { LocalEdits(sync: sync, transactions: transactions) }

    // MARK: - Changes and plan

    /// Every local change against the base: creations, updates (writable columns only) and deletions.
    ///
    /// - Throws: the store's errors.
    public func changes() throws -> [SyncChange] {
        try read { try ChangeDetector(sync: sync, engine: engine).changes() }
    }

    /// The requests that would send every local change, in dependency order; nothing is sent.
    ///
    /// - Parameter suffix: the suffix of each entity's paths (default: its `http` source's
    ///   `suffix`, `.json` without one; ``MappingModel/pathSuffix(of:)``).
    public func plan(suffix: ((String) -> String)? = nil) throws -> PushPlan {
        let suffix = suffix ?? model.pathSuffix(of:)
        return try withoutActuallyEscaping(suffix) { suffix in
            try PlanBuilder(sync: sync, builder: RequestBuilder(sync: sync, suffix: suffix)).plan(changes())
        }
    }

    // MARK: - Objects

    /// The objects of an entity (its sub-entities' included) whose attributes hold the values of
    /// `conditions` (every object without), in the store's order.
    ///
    /// ```swift
    /// let ada = try sync.objects(of: "CRMPerson", where: ["email": "ada@example.com"]).first
    /// ```
    ///
    /// - Throws: ``ReadError`` for an unknown entity or attribute, or a condition's value of
    ///   another type; the store's errors.
    public func objects(of entity: String, where conditions: [String: QueryValue] = [:]) throws -> [LocalObject] {
        let request = ObjectRequest(
            target: .entity(entity), conditions: conditions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        return try read { try LocalObjects(sync: sync, engine: engine).objects(request) }
    }

    /// The object of an entity (or one of its sub-entities) with an identity; `nil` when the store has none.
    ///
    /// - Throws: ``ReadError`` for an unknown entity, the store's errors.
    public func object(_ entity: String, identity: [Value]) throws -> LocalObject? {
        let type = try sync.stored.type(named: entity)
        let table = sync.stored.table(of: type)
        let conditions = zip(table.identity, identity).map { column, value in
            (attribute: Self.attribute(at: column, of: table), value: QueryValue.equals(value))
        }
        let request = ObjectRequest(target: .entity(entity), conditions: conditions)
        return try read { try LocalObjects(sync: sync, engine: engine).objects(request).first }
    }

    /// The object of an entity whose row has this handle; `nil` when the store has none.
    package func object(_ entity: String, reference: RowReference) throws -> LocalObject? {
        let type = try sync.stored.type(named: entity)
        return try read { try LocalObjects(sync: sync, engine: engine).object(type, reference: reference) }
    }

    /// Changes attributes of an object locally (by attribute name); the change is pending until pushed.
    ///
    /// - Returns: the object as stored now.
    /// - Throws: ``SyncError`` for an unknown attribute or an object no longer stored, or the store's errors.
    @discardableResult
    public func update(_ object: LocalObject, _ values: [String: Value]) throws -> LocalObject {
        try edits.update(object, values)
    }

    /// Points a to-one relationship at another object (or at nothing), writing its foreign key.
    ///
    /// The destination may be new: its temporary identity is written, and the
    /// push sends it first and rewrites the key with the identity the server assigns.
    @discardableResult
    public func link(_ object: LocalObject, _ relationship: String, to destination: LocalObject?) throws -> LocalObject
    {
        try edits.link(object, relationship, to: destination)
    }

    /// Inserts a new object; the next push creates it on the server.
    ///
    /// An integer identity left out gets a temporary negative value, which
    /// other objects can point at (``link(_:_:to:)``) until the server assigns
    /// the real one; other identities (names, slugs) must be given.
    ///
    /// - Throws: ``SyncError`` for an unknown attribute or a missing non-integer identity.
    @discardableResult
    public func insert(_ entity: String, _ values: [String: Value]) throws -> LocalObject {
        try edits.insert(entity, values)
    }

    /// Deletes an object locally; the next push deletes it on the server (an
    /// object never pushed just disappears).
    public func delete(_ object: LocalObject) throws {
        try edits.delete(object)
    }

    // MARK: - Reads beside the objects

    /// The stored links of a to-many relationship: each source's destination identities,
    /// in payload order for `ordered: true` (the join table's `position`, or the
    /// `<key>_position` column beside a child's foreign key), else in the store's order.
    ///
    /// ```swift
    /// let team = try sync.links(of: "CRMTeam", "members")[IdentityKey([.int(7)])]  // [3, 1, 2]
    /// ```
    ///
    /// Every source's links at once: to follow one object's, read it with ``StoreReader`` and
    /// ask it for ``StoreObject/related(_:)``.
    ///
    /// - Throws: ``PersistError`` for an unknown entity, a relationship that is not a to-many,
    ///   or one whose links live in neither a join table nor a child's foreign-key column.
    public func links(of entity: String, _ relationship: String) throws -> [IdentityKey: [IdentityKey]] {
        try ToManyLinks(sync: sync, transactions: transactions).links(of: entity, relationship)
    }

    /// Per entity of the model: stored objects, pending local changes, stored cursors and the
    /// last time a run advanced its state (docs/cli.md, `rmap status`). It only reads, in one
    /// read transaction, so it works on a store it cannot write.
    ///
    /// - Throws: ``PersistError`` for a run state that is not JSON, or the store's errors.
    public func status() throws -> [EntityStatus] {
        try EntityStatusReader(model: model, sync: sync, transactions: transactions).statuses()
    }

    // MARK: - Push

    /// Records that the server accepted `request`: the object's row and base
    /// become what was sent with the server's answer laid over it (server-side
    /// values such as `updated_at`); a created object takes the identity from
    /// the answer or, when the body is empty, from `location`'s last segment,
    /// and every foreign key and join-table link that held its temporary identity
    /// gets the real one. When the store already holds an object under the real
    /// identity (a run imported it while the `POST` was in flight), the two are
    /// one object: merged three-way (``CreatedObjectMerge``, local edits kept),
    /// stored once. A deleted object's base is dropped. The request's
    /// push-journal entry goes in the same transaction.
    ///
    /// - Returns: the temporary identity and the real one, when they differ.
    /// - Throws: ``SyncError`` when a created object's identity cannot be found.
    @discardableResult
    public func acknowledge(
        _ request: PlannedRequest, answer: JSONValue?, location: String?, suffix: String = ".json"
    ) throws -> (from: [Value], to: [Value])? {
        try acknowledgement.record(request, answer: answer, location: location, suffix: suffix)
    }

    /// How many creations the push journal holds: `POST`s that a push sent, or was about to
    /// send, whose answers are not recorded (the push was killed, could not record them, or is
    /// still waiting). The server may hold their objects already; a run stores those beside the
    /// local rows, and the next push pairs each with its row by its idempotency key (docs/push.md,
    /// "Runs and pushes that meet"). A store without a journal holds none, and is not given one
    /// (nor the model's tables) by asking.
    ///
    /// - Throws: the store's errors.
    public func journalledCreations() throws -> Int {
        try inFlight.creations()
    }

    // MARK: - Scopes

    /// Runs `body` in one transaction that only reads: it neither waits for nor blocks a write
    /// of another connection (SQLite's shared lock, PostgreSQL's read-only snapshot), and
    /// nothing is committed.
    ///
    /// The schema is not checked on reads: the first read of a `SyncStore` finds, by reading,
    /// whether the model's tables are in place and keeps a yes. Until then (a new store) a read
    /// runs as a ``write(_:)``, which creates what is missing. Inside another scope, `body` joins it.
    ///
    /// ```swift
    /// let (changes, people) = try sync.read { (try sync.changes(), try sync.objects(of: "CRMPerson")) }
    /// ```
    ///
    /// - Throws: what `body` throws, or the store's errors.
    public func read<Result>(_ body: () throws -> Result) throws -> Result {
        try transactions.read(body)
    }

    /// Runs `body` in one write transaction over the model's tables (SQLite's `BEGIN IMMEDIATE`,
    /// PostgreSQL's advisory lock), which makes sure of the schema first: committed when `body`
    /// returns, rolled back when it throws. Inside a write scope, `body` joins it.
    ///
    /// ```swift
    /// try sync.write {
    ///     try sync.update(ada, ["email": .string("ada@lovelace.org")])
    ///     try sync.delete(charles)
    /// }
    /// ```
    ///
    /// - Throws: ``SyncError`` inside a read scope, what `body` throws, or the store's errors.
    public func write<Result>(_ body: () throws -> Result) throws -> Result {
        try transactions.write(journal: false, body)
    }

    // MARK: - Helpers

    /// The attribute a column holds (an identity column always holds the root's attribute).
    private static func attribute(at column: Int, of table: TableLayout) -> String {
        if case .attribute(let name) = table.roles[column] { return name }
        return table.columns[column].name
    }
}
