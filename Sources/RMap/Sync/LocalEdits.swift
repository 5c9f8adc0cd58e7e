/// The local edits of a ``SyncStore`` (change, link, insert, delete): each writes the object's
/// row in a write transaction whose writes the store's base capture keeps as pending until pushed.
///
/// ```swift
/// let edits = LocalEdits(sync: schema, transactions: transactions)
/// let ada = try edits.update(ada, ["email": .string("ada@lovelace.org")])
/// ```
struct LocalEdits {
    let sync: SyncSchema
    let transactions: SyncTransactions

    /// Changes attributes of an object (``SyncStore/update(_:_:)``); the object as stored now.
    ///
    /// - Throws: ``SyncError`` for an unknown attribute or an object no longer stored, or the store's errors.
    func update(_ object: LocalObject, _ values: [String: Value]) throws -> LocalObject {
        let entity = try sync.entity(named: object.entity)
        let columns = try values.map { (try column($0.key, of: entity), $0.value) }
        return try edit(object, entity, columns)
    }

    /// Points a to-one relationship at another object or at nothing (``SyncStore/link(_:_:to:)``);
    /// the object as stored now.
    ///
    /// - Throws: ``SyncError`` for a relationship without a foreign key, or an object no longer stored.
    func link(_ object: LocalObject, _ relationship: String, to destination: LocalObject?) throws -> LocalObject {
        let entity = try sync.entity(named: object.entity)
        guard let position = entity.type.relationshipIndex(relationship),
            let group = sync.referenceColumns(entity, relationship: position)
        else {
            throw SyncError.noForeignKeyRelationship(entity: object.entity, relationship: relationship)
        }
        return try edit(object, entity, group.enumerated().map { ($1, destination?.identity[$0] ?? .null) })
    }

    /// Inserts a new object (``SyncStore/insert(_:_:)``), an integer identity left out given a
    /// temporary negative value; the object as stored.
    ///
    /// - Throws: ``SyncError`` for an unknown attribute or a missing non-integer identity.
    func insert(_ entity: String, _ values: [String: Value]) throws -> LocalObject {
        let mapping = try sync.entity(named: entity)
        let table = mapping.table
        return try editLocally { engine in
            let stored = StoredTable(table: table, engine: engine)
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
            try LocalClaims(mapping, edited: Array(table.columns.indices), sync: sync, dialect: engine.dialect)
                .settle(row: inserted.handle, on: engine)
            return LocalObject(row: inserted.values, reference: inserted.handle, entity: mapping, isNew: true, sync)
        }
    }

    /// Deletes an object locally (``SyncStore/delete(_:)``).
    ///
    /// - Throws: ``SyncError`` for an object no longer stored, or the store's errors.
    func delete(_ object: LocalObject) throws {
        let entity = try sync.entity(named: object.entity)
        try editLocally { engine in
            guard try StoredTable(table: entity.table, engine: engine).delete(handle: object.reference) else {
                throw SyncError.noLongerStored(entity: object.entity, identity: "\(IdentityKey(object.identity))")
            }
        }
    }

    /// A write transaction whose writes are local edits, pending until pushed: the store's base
    /// capture keeps the server's state of each row they change (``SQLEngine/setLocalEdits(_:)``).
    private func editLocally<Result>(_ body: (any SQLEngine) throws -> Result) throws -> Result {
        try transactions.write(journal: false) {
            let engine = try transactions.engine
            try engine.setLocalEdits(true)
            defer { try? engine.setLocalEdits(false) }
            return try body(engine)
        }
    }

    /// Writes `columns` (position, value) in the object's row, locally; the object as stored now.
    private func edit(_ object: LocalObject, _ entity: SyncSchema.EntitySync, _ columns: [(Int, Value)]) throws
        -> LocalObject
    {
        try editLocally { engine in
            let stored = StoredTable(table: entity.table, engine: engine)
            guard try stored.update(handle: object.reference, columns.map { ($0.0, $0.1) }) else {
                throw SyncError.noLongerStored(entity: object.entity, identity: "\(IdentityKey(object.identity))")
            }
            try LocalClaims(entity, edited: columns.map(\.0), sync: sync, dialect: engine.dialect)
                .settle(row: object.reference, on: engine)
            guard let row = try stored.row(handle: object.reference) else {
                throw SyncError.noLongerStored(entity: object.entity, identity: "\(IdentityKey(object.identity))")
            }
            return LocalObject(row: row, reference: object.reference, entity: entity, isNew: object.isNew, sync)
        }
    }

    /// The column of an attribute, or of a foreign key named by its column.
    private func column(_ name: String, of entity: SyncSchema.EntitySync) throws -> Int {
        if let index = entity.type.attributeIndex(name) {
            return sync.layout.bindings[entity.type.index].attributeColumns[index]
        }
        if let index = entity.table.columnIndex(name), case .foreignKey = entity.table.roles[index] { return index }
        throw SyncError.unknownAttribute(entity: entity.type.name, attribute: name)
    }
}
