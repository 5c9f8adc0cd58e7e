/// Finds the local changes of a store against its base (MAPPING.md §6).
///
/// A row whose identity has no base row is new (its identity is null, or a
/// temporary one the server has never seen); a row that differs from its base
/// in a writable column is changed (values compare by type: `12.50` equals
/// `12.5`, datetimes at millisecond precision); a base without a row is
/// deleted. `readonly` attributes never count. Links edited in a join table
/// count as a change of the array attribute that feeds it (``LinkedArrayValues``).
struct ChangeDetector {
    let sync: SyncSchema
    let backend: any SyncBackend

    /// Every change, table by table in model order, rows in insertion order, then deletions.
    func changes() throws -> [SyncChange] {
        var changes: [SyncChange] = []
        for (index, table) in sync.layout.tables.enumerated() {
            let stored = try backend.localChanges(table)
            let linked = try LinkedArrayValues(sync: sync, table: index, rows: stored.rows, backend: backend)
            for (var row, base) in stored.rows {
                guard let entity = sync.entity(ofRow: row.values, table: index) else { continue }
                if !entity.linkedArrays.isEmpty {
                    row.values = linked.apply(to: row.values, base: base, entity: entity)
                }
                if let change = change(row: row, base: base, entity: entity) { changes.append(change) }
            }
            let deleted = stored.deleted.sorted { ValueText.display(.array($0)) < ValueText.display(.array($1)) }
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

    private func change(row: StoredRow, base: [Value]?, entity: SyncSchema.EntitySync) -> SyncChange? {
        let writable = entity.columns.filter { !$0.isReadonly }.map(\.column)
        guard let base else {
            let serverAssigned = Set(entity.table.identity.filter { entity.table.columns[$0].type == .int })
            let columns = writable.filter { !serverAssigned.contains($0) && !row.values[$0].isNull }
            return SyncChange(
                kind: .create, entity: entity.type.name, reference: row.reference, values: row.values, base: nil,
                columns: columns, identityColumns: entity.table.identity)
        }
        let changed = writable.filter { row.values[$0] != base[$0] }
        guard !changed.isEmpty else { return nil }
        return SyncChange(
            kind: .update, entity: entity.type.name, reference: row.reference, values: row.values, base: base,
            columns: changed, identityColumns: entity.table.identity)
    }
}
