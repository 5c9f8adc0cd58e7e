@testable import RMap

/// An object as a store holds it: the current row and the base.
struct StoredObject: Sendable, Equatable {
    /// The entity, from the row's `type` column (the table's root when it has none).
    var entity: String
    /// The row's handle; `nil` for an object deleted locally.
    var reference: RowReference?
    /// The current values, parallel to ``TableLayout/columns``; `nil` when deleted locally.
    var values: [Value]?
    /// The last server state; `nil` for an object created locally.
    var base: [Value]?
}

/// What the persist tests read of a store, in SQL on its engine, table by table: rows with their
/// bases (a row without a base row is its own base unless it is noted as created locally), links,
/// and the few writes a push would make. The library reads stores by the model's names
/// (``SyncStore``, ``StoreReader``); this reads the tables as they are.
struct StoredObjects {
    let layout: StoreLayout
    let store: any Store
    let schema: GraphSchema

    /// `body` in a transaction over the layout's tables (made when missing, and rolled back with
    /// the rest unless `commit`): a read leaves a store that has no tables yet as it was.
    private func transaction<Result>(commit: Bool = false, _ body: (any SQLEngine) throws -> Result) throws -> Result {
        try store.load(layout)
        let engine = try store.engine()
        return try engine.transaction(.write, commit: commit) {
            try StoreSchema.ensure(layout, on: engine)
            return try body(engine)
        }
    }

    /// Every row of `table` with its handle, in the handles' order.
    private func scanRows(_ table: TableLayout, on engine: any SQLEngine) throws -> [(RowReference, [Value])] {
        let q = engine.dialect.quote
        let handle = q(engine.dialect.rowHandle)
        let sql =
            "SELECT \(handle), \(table.columns.map { q($0.name) }.joined(separator: ", ")) FROM \(q(table.name)) "
            + "ORDER BY \(handle)"
        return try engine.rows(sql, types: [.int] + table.columns.map(\.type)).map { row in
            guard case .int(let reference) = row[0] else { return (0, Array(row.dropFirst())) }
            return (reference, Array(row.dropFirst()))
        }
    }

    /// Every row of a table that holds values, as stored.
    private func scan(_ name: String, _ columns: [ColumnLayout], on engine: any SQLEngine) throws -> [[Value]] {
        let q = engine.dialect.quote
        return try engine.rows(
            "SELECT \(columns.map { q($0.name) }.joined(separator: ", ")) FROM \(q(name))", types: columns.map(\.type))
    }

    /// Every object of an entity and its sub-entities: rows with their base, then bases whose row was deleted.
    func rows(of entity: String) throws -> [StoredObject] {
        let stored = StoredModel(schema: schema)
        let type = try stored.type(named: entity)
        let position = stored.binding(of: type).table
        let table = layout.tables[position]
        let family = Set(schema.family(of: type).map(\.index))
        func name(_ row: [Value]) -> String? {
            stored.entity(ofRow: row, table: position).flatMap { family.contains($0.index) ? $0.name : nil }
        }
        let identities = table.identity.map { table.columns[$0] }
        return try transaction { engine in
            var bases: [IdentityKey: [Value]] = [:]
            for base in try scan(table.baseName, table.columns, on: engine) {
                bases[IdentityKey(table.identityValues(of: base))] = base
            }
            let created = Set(try scan(table.insertedName, identities, on: engine).map(IdentityKey.init))
            var objects: [StoredObject] = []
            for (reference, values) in try scanRows(table, on: engine) {
                let key = IdentityKey(table.identityValues(of: values))
                let base =
                    key.isIncomplete ? nil : bases.removeValue(forKey: key) ?? (created.contains(key) ? nil : values)
                guard let entity = name(values) else { continue }
                objects.append(StoredObject(entity: entity, reference: reference, values: values, base: base))
            }
            for base in bases.values.sorted(by: { ValueText.display(.array($0)) < ValueText.display(.array($1)) }) {
                guard let entity = name(base) else { continue }
                objects.append(StoredObject(entity: entity, reference: nil, values: nil, base: base))
            }
            return objects
        }
    }

    /// Objects created locally (rows without a base).
    func localInserts(of entity: String) throws -> [StoredObject] {
        try rows(of: entity).filter { $0.values != nil && $0.base == nil }
    }

    /// Records a change the server accepted: the row becomes `values`, and so does its base.
    func acknowledge(_ entity: String, reference: RowReference, values: [Value]) throws {
        let table = layout.table(of: schema.type(named: entity)!)
        try transaction(commit: true) { engine in
            let stored = StoredTable(table: table, engine: engine)
            try stored.replace(handle: reference, with: values)
            try stored.settle(identity: table.identityValues(of: values))
        }
    }

    /// Changes a row locally: the base stays, so the change is pending.
    func update(_ entity: String, reference: RowReference, values: [Value]) throws {
        let table = layout.table(of: schema.type(named: entity)!)
        try transaction(commit: true) { engine in
            try engine.setLocalEdits(true)
            try StoredTable(table: table, engine: engine).replace(handle: reference, with: values)
            try engine.setLocalEdits(false)
        }
    }

    /// Every link of a join table: source identity values, then destination identity values.
    func scanLinks(_ join: JoinTableLayout) throws -> [[Value]] {
        try transaction { engine in try scan(join.name, join.columns, on: engine) }
    }

    /// Each source's destination identities of a to-many, kept in a join table or by its
    /// children's foreign key, in `position` order when the store keeps one, else in the store's.
    func links(of entity: String, _ relationship: String) throws -> [IdentityKey: [IdentityKey]] {
        let type = schema.type(named: entity)!
        let position = type.relationshipIndex(relationship)!
        guard let binding = layout.bindings[type.index].joins.first(where: { $0.relationship == position }) else {
            return try childLinks(type, position)
        }
        let join = layout.joinTables[binding.join]
        let links = try scanLinks(join)
        var placed: [IdentityKey: [Placed]] = [:]
        for (order, link) in links.enumerated() {
            var place: Int64 = 0
            if join.ordered, case .int(let number)? = link.last { place = number }
            let destination = IdentityKey(join.destinationColumns.indices.map { link[$0] })
            placed[IdentityKey(Array(link.prefix(join.sourceColumnCount))), default: []].append(
                (place, order, destination))
        }
        return Self.ordered(placed)
    }

    private typealias Placed = (place: Int64, order: Int, destination: IdentityKey)

    /// A to-many its children hold: their inverse to-one's columns, and its `<key>_position`.
    private func childLinks(_ type: EntityType, _ position: Int) throws -> [IdentityKey: [IdentityKey]] {
        let relationship = type.mapping.relationships[position]
        let destination = schema.type(named: relationship.destination)!
        let inverse = destination.relationshipIndex(relationship.inverse!)!
        let keys = layout.bindings[destination.index].foreignKeys.first { $0.relationship == inverse }!.columns
        let place = layout.bindings[destination.index].positions.first { $0.relationship == inverse }?.column
        let table = layout.table(of: destination)
        let rows = try transaction { engine in try scanRows(table, on: engine) }
        var placed: [IdentityKey: [Placed]] = [:]
        for (order, (_, values)) in rows.enumerated() {
            let source = keys.map { values[$0] }
            guard !source.contains(.null) else { continue }
            var at: Int64 = 0
            if let place, case .int(let number) = values[place] { at = number }
            placed[IdentityKey(source), default: []].append((at, order, IdentityKey(table.identityValues(of: values))))
        }
        return Self.ordered(placed)
    }

    private static func ordered(_ placed: [IdentityKey: [Placed]]) -> [IdentityKey: [IdentityKey]] {
        placed.mapValues { $0.sorted { ($0.place, $0.order) < ($1.place, $1.order) }.map(\.destination) }
    }
}

extension Store {
    /// The store's objects as its tables hold them.
    func objects(schema: GraphSchema) -> StoredObjects {
        StoredObjects(layout: StoreLayout(schema: schema), store: self, schema: schema)
    }
}
