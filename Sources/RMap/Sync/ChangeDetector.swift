/// Finds the local changes of a store against its base (MAPPING.md §6), in the store's engine.
///
/// A row whose identity has no base row is new (its identity is null, or a
/// temporary one the server has never seen); a row that differs from its base
/// in a writable column is changed (values compare by type: `12.50` equals
/// `12.5`, datetimes at millisecond precision); a base without a row is
/// deleted. `readonly` attributes never count. Links edited in a join table
/// count as a change of the array attribute that feeds it (``LinkedArrayValues``).
///
/// Only the rows that can differ are read (``StoredTable/changedRows(compared:differing:_:)``):
/// those with a base row that differs from it in a writable column, as SQL compares them, then
/// confirmed value by value; those noted as created locally; those without a whole identity.
/// A store of millions of rows with ten local edits reads ten rows.
struct ChangeDetector {
    let sync: SyncSchema
    let engine: any SQLEngine

    /// Every change, table by table in model order, rows in insertion order, then deletions.
    func changes() throws -> [SyncChange] {
        var changes: [SyncChange] = []
        // A table without identity has no base to compare with.
        for (index, table) in sync.layout.tables.enumerated() where !table.identity.isEmpty {
            let stored = StoredTable(table: table, engine: engine)
            let family = sync.entities.filter { $0.tableIndex == index }
            let linking = family.contains { !$0.linkedArrays.isEmpty }
            var rows: [(reference: RowReference, values: [Value], base: [Value]?)] = []
            try stored.changedRows(compared: Self.writable(family), differing: !linking) { reference, values, base in
                rows.append((reference, values, base))
            }
            let linked = try LinkedArrayValues(sync: sync, table: index, rows: rows, engine: engine)
            for (reference, var values, base) in rows {
                guard let entity = sync.entity(ofRow: values, table: index) else { continue }
                if !entity.linkedArrays.isEmpty { values = linked.apply(to: values, base: base, entity: entity) }
                if let change = change(reference, values, base: base, entity: entity) { changes.append(change) }
            }
            let deleted = try stored.deletedBases().sorted {
                ValueText.display(.array($0)) < ValueText.display(.array($1))
            }
            for base in deleted {
                guard let entity = sync.entity(ofRow: base, table: index) else { continue }
                changes.append(
                    SyncChange(
                        kind: .delete, entity: entity.type.name, reference: nil, values: base, base: base, columns: [],
                        identityColumns: table.identity))
            }
        }
        return changes
    }

    /// The columns that some entity of the table sends: those a change can be made of.
    private static func writable(_ family: [SyncSchema.EntitySync]) -> [Int] {
        Array(Set(family.flatMap { $0.columns.filter { !$0.isReadonly }.map(\.column) })).sorted()
    }

    private func change(_ reference: RowReference, _ values: [Value], base: [Value]?, entity: SyncSchema.EntitySync)
        -> SyncChange?
    {
        let writable = entity.columns.filter { !$0.isReadonly }.map(\.column)
        guard let base else {
            let serverAssigned = Set(entity.table.identity.filter { entity.table.columns[$0].type == .int })
            let columns = writable.filter { !serverAssigned.contains($0) && !values[$0].isNull }
            return SyncChange(
                kind: .create, entity: entity.type.name, reference: reference, values: values, base: nil,
                columns: columns, identityColumns: entity.table.identity)
        }
        let changed = writable.filter { values[$0] != base[$0] }
        guard !changed.isEmpty else { return nil }
        return SyncChange(
            kind: .update, entity: entity.type.name, reference: reference, values: values, base: base,
            columns: changed, identityColumns: entity.table.identity)
    }
}
