@testable import RMap

/// An object as a store built on ``StoreBackend`` holds it: the current row and the base.
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

/// What the persist tests read of a store built on ``StoreBackend`` (every store kind of the old
/// write path: memory, JSON, and SQLite and PostgreSQL through their backends): rows with their
/// bases, links, and the few writes a push would make. The library reads stores with SQL
/// (``SyncStore``, ``StoreReader``); this reads what the old write path wrote, with its own primitives.
struct BackendObjects {
    let layout: StoreLayout
    let backend: any SyncBackend
    let schema: GraphSchema

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
        return try backend.transaction(layout) {
            var bases: [IdentityKey: [Value]] = [:]
            for base in try backend.scanBase(table) { bases[IdentityKey(table.identityValues(of: base))] = base }
            var objects: [StoredObject] = []
            for row in try backend.scanRows(table) {
                let key = IdentityKey(table.identityValues(of: row.values))
                let base = key.isIncomplete ? nil : bases.removeValue(forKey: key)
                guard let entity = name(row.values) else { continue }
                objects.append(StoredObject(entity: entity, reference: row.reference, values: row.values, base: base))
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
        try backend.transaction(layout) {
            try backend.updateRow(table, reference: reference, values: values)
            try backend.settleBase(table, [values])
        }
    }

    /// Changes a row locally: the base stays, so the change is pending.
    func update(_ entity: String, reference: RowReference, values: [Value]) throws {
        let table = layout.table(of: schema.type(named: entity)!)
        try backend.transaction(layout) {
            try backend.editingLocally { try backend.updateRow(table, reference: reference, values: values) }
        }
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
        let links = try backend.transaction(layout) { try backend.scanLinks(join) }
        var placed: [IdentityKey: [Placed]] = [:]
        for (order, link) in links.enumerated() {
            var place: Int64 = 0
            if join.ordered, case .int(let number)? = link.last { place = number }
            let destination = IdentityKey(join.destinationColumns.indices.map { link[$0] })
            placed[IdentityKey(Array(link.prefix(join.sourceColumnCount))), default: []].append((place, order, destination))
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
        let rows = try backend.transaction(layout) { try backend.scanRows(table) }
        var placed: [IdentityKey: [Placed]] = [:]
        for (order, row) in rows.enumerated() {
            let source = keys.map { row.values[$0] }
            guard !source.contains(.null) else { continue }
            var at: Int64 = 0
            if let place, case .int(let number) = row.values[place] { at = number }
            placed[IdentityKey(source), default: []].append((at, order, IdentityKey(table.identityValues(of: row.values))))
        }
        return Self.ordered(placed)
    }

    private static func ordered(_ placed: [IdentityKey: [Placed]]) -> [IdentityKey: [IdentityKey]] {
        placed.mapValues { $0.sorted { ($0.place, $0.order) < ($1.place, $1.order) }.map(\.destination) }
    }
}

extension BackendStore {
    /// The store's objects as its backend holds them.
    func objects(schema: GraphSchema) -> BackendObjects {
        BackendObjects(layout: StoreLayout(schema: schema), backend: backend, schema: schema)
    }
}
