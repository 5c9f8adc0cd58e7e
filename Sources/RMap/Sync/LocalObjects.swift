/// Reads ``LocalObject``s from a store's engine: a request's objects (``ObjectRequest``), each
/// with its row's handle and whether the server has seen it.
struct LocalObjects {
    let sync: SyncSchema
    let engine: any SQLEngine

    /// The objects a request reads, in its order.
    ///
    /// - Throws: ``ReadError`` for names the model lacks, or the engine's errors.
    func objects(_ request: ObjectRequest) throws -> [LocalObject] {
        let selection = try sync.stored.select(request, dialect: engine.dialect)
        return try read(selection.select, table: sync.stored.binding(of: selection.entity).table)
    }

    /// The object of `type`'s table whose row has this handle, if it is one of `type`'s family.
    func object(_ type: EntityType, reference: RowReference) throws -> LocalObject? {
        var select = ObjectSelect(table: sync.stored.table(of: type), dialect: engine.dialect)
        select.condition("\(select.handle) = ?", [.int(reference)])
        if let rows = sync.stored.rows(
            of: sync.schema.family(of: type), alias: ObjectSelect.alias, dialect: engine.dialect)
        {
            select.condition(rows)
        }
        return try read(select, table: sync.stored.binding(of: type).table).first
    }

    /// The objects of `select` (over the table at `position`): whether each is new is read beside it.
    private func read(_ select: ObjectSelect, table position: Int) throws -> [LocalObject] {
        var select = select
        let table = select.table
        if !table.identity.isEmpty {
            let identity = table.identityNames.map { "x.\(engine.dialect.quote($0)) = \(select.column($0))" }
                .joined(separator: " AND ")
            let complete = table.identityNames.map { "\(select.column($0)) IS NOT NULL" }.joined(separator: " AND ")
            // New: no base row, and noted as created locally or without a whole identity.
            select.extra.append(
                (
                    "CASE WHEN EXISTS (SELECT 1 FROM \(engine.dialect.quote(table.baseName)) AS x WHERE \(identity)) "
                        + "THEN 0 WHEN NOT (\(complete)) THEN 1 WHEN EXISTS (SELECT 1 FROM "
                        + "\(engine.dialect.quote(table.insertedName)) AS x WHERE \(identity)) THEN 1 ELSE 0 END",
                    .int
                ))
        }
        let (sql, parameters) = select.sql(after: nil, limit: nil)
        var objects: [LocalObject] = []
        let width = table.columns.count
        try engine.query(sql, parameters, types: select.types) { values in
            let row = Array(values[1...width])
            guard case .int(let reference) = values[0],
                let type = sync.stored.entity(ofRow: row, table: position)
            else { return }
            let isNew = table.identity.isEmpty ? false : values[width + 1] == .int(1)
            objects.append(
                LocalObject(row: row, reference: reference, entity: sync.entities[type.index], isNew: isNew, sync))
        }
        return objects
    }
}

extension LocalObject {
    /// The object of a stored row of `entity`.
    init(row: [Value], reference: RowReference, entity: SyncSchema.EntitySync, isNew: Bool, _ sync: SyncSchema) {
        self.init(
            entity: entity.type.name, reference: reference, values: sync.stored.values(of: row, as: entity.type),
            identity: entity.table.identityValues(of: row), isNew: isNew)
    }
}
