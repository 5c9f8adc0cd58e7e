// MARK: - Acknowledged creations: one object, one identity

extension SyncStore {
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
        let identity = table.identityValues(of: values)
        guard !IdentityKey(identity).isIncomplete,
            let imported = try backend.fetch(table, identities: [identity])[IdentityKey(identity)]
        else { return false }
        let merged = CreatedObjectMerge(policy: entity.type.mapping.onConflict).merge(
            created: values, sent: change.values, carried: change.columns, identity: table.identity,
            imported: imported)
        try backend.delete(table, identities: [identity])
        try backend.updateRow(table, reference: reference, values: merged.row)
        try backend.settleBase(table, [merged.row])
        if merged.row != merged.base { try backend.upsertBase(table, [merged.base]) }
        return true
    }

    /// Points every reference to `old`, an identity of the table at position `destination`, at
    /// `new`: the foreign keys that hold it, and the join tables' links to it; its own links as a
    /// join table's source become `new`'s, beside those `new` has. rmap's own writes: no base
    /// is captured for them.
    func moveReferences(to destination: Int, from old: [Value], to new: [Value]) throws {
        for group in sync.references where group.destination == destination {
            let table = sync.layout.tables[group.table]
            for row in try backend.scanRows(table) where group.columns.map({ row.values[$0] }) == old {
                var values = row.values
                for (offset, column) in group.columns.enumerated() { values[column] = new[offset] }
                try backend.updateRow(table, reference: row.reference, values: values)
            }
        }
        for reference in sync.joins {
            let join = sync.layout.joinTables[reference.join]
            if reference.source == destination { try moveLinks(join, fromSource: old, to: new) }
            if reference.destination == destination { try moveLinks(join, fromDestination: old, to: new) }
        }
    }

    /// Makes the links of source `old` links of source `new`, after the ones `new` has.
    private func moveLinks(_ join: JoinTableLayout, fromSource old: [Value], to new: [Value]) throws {
        let moved = try backend.links(join, sources: [old])
        guard !moved.isEmpty else { return }
        let kept = try backend.links(join, sources: [new])
        var links = kept
        for link in moved {
            var relinked = new + link.dropFirst(join.sourceColumnCount)
            if join.ordered { relinked[relinked.count - 1] = .int(Int64(links.count)) }
            links.append(relinked)
        }
        try backend.replaceLinks(join, sources: [old], links: [])
        try backend.replaceLinks(join, sources: [new], links: Self.once(links, join))
    }

    /// Makes every link to destination `old` a link to `new`.
    private func moveLinks(_ join: JoinTableLayout, fromDestination old: [Value], to new: [Value]) throws {
        let destination = join.destinationColumns.indices
        var sources: [IdentityKey: [Value]] = [:]
        for link in try backend.links(join, destination: old) {
            let source = Array(link.prefix(join.sourceColumnCount))
            sources[IdentityKey(source)] = source
        }
        for source in sources.values {
            let links = try backend.links(join, sources: [source]).map { link in
                guard Array(link[destination]) == old else { return link }
                var relinked = link
                relinked.replaceSubrange(destination, with: new)
                return relinked
            }
            try backend.replaceLinks(join, sources: [source], links: Self.once(links, join))
        }
    }

    /// `links` without a second link between the same source and destination (the first stays).
    private static func once(_ links: [[Value]], _ join: JoinTableLayout) -> [[Value]] {
        let ends = 0..<join.destinationColumns.endIndex
        var seen = Set<IdentityKey>()
        return links.filter { seen.insert(IdentityKey(Array($0[ends]))).inserted }
    }
}
