/// A local edit of a one-to-one's key (``OneToOneHolder``) claims its destination as a run's last
/// record does (docs/mapping.md, "Inverses"): the edited object holds it and every other source
/// naming it lets go; a key edited to null, or to no stored destination, claims nothing. The
/// holder columns are written as rmap's own writes: the sources that let go are not edited locally.
///
/// ```swift
/// try LocalClaims(entity, edited: [deskIdColumn], sync: schema, dialect: engine.dialect).settle(row: handle, on: engine)
/// ```
struct LocalClaims {
    /// The keys of the entity's one-to-ones whose key attributes the edit wrote.
    let keys: [OneToOneKeys]

    init(_ entity: SyncSchema.EntitySync, edited: [Int], sync: SyncSchema, dialect: any SQLDialect.Type) {
        keys = OneToOneHolder.all(of: [entity.type], in: sync.schema)
            .map { OneToOneKeys($0, store: sync.layout, dialect: dialect) }
            .filter { $0.columns.contains { edited.contains($0.sourcePosition) } }
    }

    /// Settles the claims of the row `handle`, in the edit's transaction.
    func settle(row handle: RowReference, on engine: any SQLEngine) throws {
        guard !keys.isEmpty else { return }
        try engine.setLocalEdits(false)
        defer { try? engine.setLocalEdits(true) }
        for keys in keys {
            let q = keys.dialect.quote
            let table = q(keys.source.name)
            let row = q(keys.dialect.rowHandle)
            let holder = q(keys.holder.name)
            let same = zip(keys.sourceKeys("t"), keys.sourceKeys("e")).map { "\($0) = \($1)" }.joined(
                separator: " AND ")
            try engine.execute(
                "UPDATE \(table) AS t SET \(holder) = CASE WHEN t.\(row) = ? THEN 1 ELSE 0 END "
                    + "WHERE EXISTS (SELECT 1 FROM \(table) AS e WHERE e.\(row) = ? AND \(same) AND \(keys.namesDestination("e")))",
                [.int(handle), .int(handle)])
            try engine.execute(
                "UPDATE \(table) AS t SET \(holder) = NULL WHERE t.\(row) = ? AND \(keys.claimsNothing("t"))",
                [.int(handle)])
        }
    }
}
