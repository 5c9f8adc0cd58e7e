/// An object as a store holds it: the current row and the base, for `diff` and `push`.
public struct StoredObject: Sendable, Equatable {
    /// The entity, from the row's `type` column (the table's root when it has none).
    public var entity: String
    /// The row's handle; `nil` for an object deleted locally.
    public var reference: RowReference?
    /// The current values, parallel to ``TableLayout/columns``; `nil` when deleted locally.
    public var values: [Value]?
    /// The last server state; `nil` for an object created locally.
    public var base: [Value]?

    /// Creates a stored object.
    public init(entity: String, reference: RowReference?, values: [Value]?, base: [Value]?) {
        self.entity = entity
        self.reference = reference
        self.values = values
        self.base = base
    }

    /// Created locally: a row with no base (its identity is usually still null).
    public var isLocalInsert: Bool { values != nil && base == nil }
    /// Deleted locally: a base with no row.
    public var isLocalDelete: Bool { values == nil }
}

/// Reads what a store holds and records what a push acknowledged, over any
/// ``SyncBackend``.
///
/// ```swift
/// let objects = PersistedObjects(backend: backend, schema: schema)
/// for object in try objects.rows(of: "CRMPerson") where object.values != object.base { ... }
/// ```
public struct PersistedObjects {
    /// The tables of the schema.
    public let layout: StoreLayout
    let backend: any SyncBackend
    let schema: GraphSchema

    /// Creates a reader for a schema's tables.
    public init(backend: any SyncBackend, schema: GraphSchema) {
        self.backend = backend
        self.schema = schema
        layout = StoreLayout(schema: schema)
    }

    /// Every object of an entity and its sub-entities: rows with their base,
    /// then bases whose row was deleted locally.
    ///
    /// - Throws: ``PersistError`` for an unknown entity, or the backend's errors.
    public func rows(of entity: String) throws -> [StoredObject] {
        let (type, table) = try lookup(entity)
        var entityByType: [String: String] = [:]
        for member in schema.family(of: type) { entityByType[layout.bindings[member.index].typeValue] = member.name }
        func entityName(_ row: [Value]) -> String? {
            guard let discriminator = table.discriminator else { return type.name }
            guard case .string(let value) = row[discriminator] else {
                return type.index == type.rootIndex ? type.name : nil
            }
            return entityByType[value]
        }
        return try transaction {
            var bases: [IdentityKey: [Value]] = [:]
            for base in try backend.scanBase(table) { bases[IdentityKey(table.identityValues(of: base))] = base }
            var objects: [StoredObject] = []
            for row in try backend.scanRows(table) {
                let key = IdentityKey(table.identityValues(of: row.values))
                let base = key.isIncomplete ? nil : bases.removeValue(forKey: key)
                guard let name = entityName(row.values) else { continue }
                objects.append(StoredObject(entity: name, reference: row.reference, values: row.values, base: base))
            }
            for base in bases.values.sorted(by: { ValueText.display(.array($0)) < ValueText.display(.array($1)) }) {
                guard let name = entityName(base) else { continue }
                objects.append(StoredObject(entity: name, reference: nil, values: nil, base: base))
            }
            return objects
        }
    }

    /// Objects created locally (rows without a base), to be created on the server.
    public func localInserts(of entity: String) throws -> [StoredObject] {
        try rows(of: entity).filter(\.isLocalInsert)
    }

    /// Objects deleted locally (bases without a row), to be deleted on the server.
    public func localDeletes(of entity: String) throws -> [StoredObject] {
        try rows(of: entity).filter(\.isLocalDelete)
    }

    /// Records a change the server accepted: the row becomes `values` (with the
    /// identity the server assigned, for a created object) and so does its base.
    public func acknowledge(_ entity: String, reference: RowReference, values: [Value]) throws {
        let (_, table) = try lookup(entity)
        try transaction {
            try backend.updateRow(table, reference: reference, values: values)
            if !IdentityKey(table.identityValues(of: values)).isIncomplete {
                try backend.settleBase(table, [values])
            }
        }
    }

    /// Changes a row locally (the library API's edit): the base stays, so the change is pending.
    public func update(_ entity: String, reference: RowReference, values: [Value]) throws {
        let (_, table) = try lookup(entity)
        try transaction { try backend.editingLocally { try backend.updateRow(table, reference: reference, values: values) } }
    }

    /// Records a deletion the server accepted: the base is dropped.
    public func acknowledgeDeletion(_ entity: String, identity: [Value]) throws {
        let (_, table) = try lookup(entity)
        try transaction { try backend.deleteBase(table, identities: [identity]) }
    }

    func lookup(_ entity: String) throws -> (EntityType, TableLayout) {
        guard let type = schema.type(named: entity) else {
            throw PersistError.unknownEntity(entity)
        }
        return (type, layout.table(of: type))
    }

    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try backend.transaction(layout, body)
    }
}
