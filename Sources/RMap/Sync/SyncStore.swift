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
/// It runs rmap's SQL on the store's engine (``EngineStore``): `diff` reads the rows that can
/// differ from their base and never a whole table, and each edit is one statement. Every method
/// runs in its own small transaction, or joins the scope it is called in (``read(_:)``,
/// ``write(_:)``): reads take no write lock and do not check the schema. A `SyncStore` is not
/// `Sendable`: use it from one thread at a time (the store's engine is one connection).
public final class SyncStore {
    /// The model whose entities the store holds.
    public let model: MappingModel
    let sync: SyncSchema
    private let open: () throws -> any SQLEngine
    private var opened: (any SQLEngine)?
    /// The scope running now, if any.
    var scope: Scope?
    /// True once a read found the model's tables in place: reads do not look again.
    var schemaChecked = false
    /// The open batch (``batched(_:)``) that the write scopes run now join, if any.
    var batch: SyncBatch?

    /// Creates the API over a store whose engine runs rmap's SQL (SQLite, PostgreSQL, and the
    /// memory and JSON stores' SQLite); the engine is opened, and the store's tables of the model
    /// and of rmap's own state loaded (``EngineStore/load(_:)``), at the first call.
    public convenience init(store: any EngineStore, model: MappingModel) {
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
        self.open = open
        sync = SyncSchema(schema: GraphSchema(model: model))
    }

    /// The store's engine, opened on first use.
    var engine: any SQLEngine {
        get throws {
            if let opened { return opened }
            let engine = try open()
            opened = engine
            return engine
        }
    }

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
        let entity = try sync.entity(named: object.entity)
        let columns = try values.map { (try column($0.key, of: entity), $0.value) }
        return try edit(object, entity, columns)
    }

    /// Points a to-one relationship at another object (or at nothing), writing its foreign key.
    ///
    /// The destination may be new: its temporary identity is written, and the
    /// push sends it first and rewrites the key with the identity the server assigns.
    @discardableResult
    public func link(_ object: LocalObject, _ relationship: String, to destination: LocalObject?) throws -> LocalObject
    {
        let entity = try sync.entity(named: object.entity)
        guard let position = entity.type.relationshipIndex(relationship),
            let group = sync.referenceColumns(entity, relationship: position)
        else {
            throw SyncError.noForeignKeyRelationship(entity: object.entity, relationship: relationship)
        }
        return try edit(object, entity, group.enumerated().map { ($1, destination?.identity[$0] ?? .null) })
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
        let mapping = try sync.entity(named: entity)
        let table = mapping.table
        return try editLocally {
            let stored = StoredTable(table: table, engine: try engine)
            var row = [Value](repeating: .null, count: table.columns.count)
            for (name, value) in values { row[try column(name, of: mapping)] = value }
            if let discriminator = table.discriminator { row[discriminator] = .string(mapping.typeValue) }
            for column in table.identity where row[column].isNull {
                guard table.columns[column].type == .int else {
                    throw SyncError.missingIdentity(entity: entity, attribute: table.columns[column].name)
                }
                row[column] = .int(try stored.lowest(column) - 1)
            }
            try stored.upsert(row)
            guard let inserted = try stored.row(identity: table.identityValues(of: row)) else {
                throw SyncError.notStored(entity: entity)
            }
            return LocalObject(row: inserted.values, reference: inserted.handle, entity: mapping, isNew: true, sync)
        }
    }

    /// Deletes an object locally; the next push deletes it on the server (an
    /// object never pushed just disappears).
    public func delete(_ object: LocalObject) throws {
        let entity = try sync.entity(named: object.entity)
        try editLocally {
            guard try StoredTable(table: entity.table, engine: engine).delete(handle: object.reference) else {
                throw SyncError.noLongerStored(entity: object.entity, identity: "\(IdentityKey(object.identity))")
            }
        }
    }

    // MARK: - Helpers

    /// A ``write(_:)`` whose writes are local edits, pending until pushed: the store's base
    /// capture keeps the server's state of each row they change (``SQLEngine/setLocalEdits(_:)``).
    private func editLocally<Result>(_ body: () throws -> Result) throws -> Result {
        try write {
            let engine = try engine
            try engine.setLocalEdits(true)
            defer { try? engine.setLocalEdits(false) }
            return try body()
        }
    }

    /// Writes `columns` (position, value) in the object's row, locally; the object as stored now.
    private func edit(_ object: LocalObject, _ entity: SyncSchema.EntitySync, _ columns: [(Int, Value)]) throws
        -> LocalObject
    {
        try editLocally {
            let stored = StoredTable(table: entity.table, engine: try engine)
            guard try stored.update(handle: object.reference, columns.map { ($0.0, $0.1) }),
                let row = try stored.row(handle: object.reference)
            else {
                throw SyncError.noLongerStored(entity: object.entity, identity: "\(IdentityKey(object.identity))")
            }
            return LocalObject(row: row, reference: object.reference, entity: entity, isNew: object.isNew, sync)
        }
    }

    private func column(_ name: String, of entity: SyncSchema.EntitySync) throws -> Int {
        if let index = entity.type.attributeIndex(name) {
            return sync.layout.bindings[entity.type.index].attributeColumns[index]
        }
        if let index = entity.table.columnIndex(name), case .foreignKey = entity.table.roles[index] { return index }
        throw SyncError.unknownAttribute(entity: entity.type.name, attribute: name)
    }

    /// The attribute a column holds (an identity column always holds the root's attribute).
    private static func attribute(at column: Int, of table: TableLayout) -> String {
        if case .attribute(let name) = table.roles[column] { return name }
        return table.columns[column].name
    }
}
