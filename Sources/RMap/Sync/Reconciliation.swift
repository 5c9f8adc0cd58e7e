/// An acknowledged creation made one object with the rest of the store: the object a run imported
/// under the identity the server gave it merged into the local row, and every reference to the
/// temporary identity moved to the real one. rmap's own writes, in the acknowledgement's
/// transaction: no base is captured for them.
struct Reconciliation {
    let sync: SyncSchema
    let engine: any SQLEngine

    /// Merges an acknowledged creation into the object the store already holds under the identity
    /// the server gave it (`values`' identity), when it holds one: a run imported the created
    /// object while its `POST` was in flight. The local row takes the merged values
    /// (``CreatedObjectMerge``) and the imported copy goes; its links as a join table's source
    /// stay, the caller moves the local row's to them (``moveReferences(to:from:to:)``).
    ///
    /// - Returns: whether the store held such an object (the merge is written then).
    func mergeIntoImported(
        _ values: [Value], reference: RowReference, change: SyncChange, entity: SyncSchema.EntitySync
    ) throws -> Bool {
        let table = entity.table
        let stored = StoredTable(table: table, engine: engine)
        let identity = table.identityValues(of: values)
        guard !IdentityKey(identity).isIncomplete, let imported = try stored.state(identity: identity) else {
            return false
        }
        let merged = CreatedObjectMerge(policy: entity.type.mapping.onConflict).merge(
            created: values, sent: change.values, carried: change.columns, identity: table.identity,
            imported: imported)
        try stored.delete(identity: identity)
        try stored.replace(handle: reference, with: merged.row)
        try stored.settle(identity: change.identity)
        if merged.row != merged.base { try stored.keepBase(merged.base) }
        return true
    }

    /// Points every reference to `old`, an identity of the table at position `destination`, at
    /// `new`: the foreign keys that hold it, and the join tables' links to it; its own links as a
    /// join table's source become `new`'s, beside those `new` has.
    func moveReferences(to destination: Int, from old: [Value], to new: [Value]) throws {
        let q = engine.dialect.quote
        for group in sync.references where group.destination == destination {
            let table = sync.layout.tables[group.table]
            let columns = group.columns.map { q(table.columns[$0].name) }
            try engine.execute(
                "UPDATE \(q(table.name)) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) "
                    + "WHERE \(columns.map { "\($0) = ?" }.joined(separator: " AND "))", new + old)
        }
        for reference in sync.joins {
            let links = StoredLinks(join: sync.layout.joinTables[reference.join], engine: engine)
            if reference.source == destination { try moveLinks(links, fromSource: old, to: new) }
            if reference.destination == destination { try moveLinks(links, fromDestination: old, to: new) }
        }
    }

    /// Makes the links of source `old` links of source `new`, after the ones `new` has.
    private func moveLinks(_ links: StoredLinks, fromSource old: [Value], to new: [Value]) throws {
        let moved = try links.links(source: old)
        guard !moved.isEmpty else { return }
        var kept = try links.links(source: new)
        for link in moved {
            var relinked = link
            if links.join.ordered { relinked[relinked.count - 1] = .int(Int64(kept.count)) }
            kept.append(relinked)
        }
        try links.replace(source: old, with: [])
        try links.replace(source: new, with: kept)
    }

    /// Makes every link to destination `old` a link to `new`.
    private func moveLinks(_ links: StoredLinks, fromDestination old: [Value], to new: [Value]) throws {
        let width = links.join.destinationColumns.count
        for source in try links.sources(linkedTo: old) {
            let relinked = try links.links(source: source).map { link in
                Array(link.prefix(width)) == old ? new + link.dropFirst(width) : link
            }
            try links.replace(source: source, with: relinked)
        }
    }
}
