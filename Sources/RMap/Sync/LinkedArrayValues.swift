/// The links of the join tables fed by array attributes (``SyncSchema/LinkedArray``),
/// read once for change detection, so that links edited in the join table itself
/// (`INSERT INTO projects_team_members ...`) are diffed and pushed as the array
/// attribute that feeds them (`{"project": {"team_member_ids": [1, 4]}}`).
///
/// The base of the links is the base row's array: its ids that name a stored
/// destination are the links the last server state made. When the join table's
/// links to stored destinations differ from those, and the attribute itself was
/// not edited, the attribute's local value becomes the links: the base order for
/// the ids kept (ids naming no stored object stay, as the server knows them), then
/// the ids added. An edited attribute speaks for itself. Once a push is
/// acknowledged, row and base hold that array and the links agree with it again.
struct LinkedArrayValues {
    /// Per join table position: destination identity values by source identity.
    private var links: [Int: [IdentityKey: [Value]]] = [:]
    /// Per destination table position: the identities it stores.
    private var destinations: [Int: Set<IdentityKey>] = [:]

    /// Reads the links of `rows` (the rows of table `table` that ``ChangeDetector`` compares, with
    /// their bases) and which of the destination identities they name the store holds.
    init(
        sync: SyncSchema, table: Int, rows: [(reference: RowReference, values: [Value], base: [Value]?)],
        engine: any SQLEngine
    ) throws {
        let layout = sync.layout
        for entity in sync.entities where entity.tableIndex == table {
            for linked in entity.linkedArrays where links[linked.join] == nil {
                let join = StoredLinks(join: layout.joinTables[linked.join], engine: engine)
                var bySource: [IdentityKey: [Value]] = [:]
                for row in rows {
                    let source = layout.tables[table].identityValues(of: row.values)
                    guard !IdentityKey(source).isIncomplete else { continue }
                    bySource[IdentityKey(source)] = try join.links(source: source).map { $0[0] }
                }
                links[linked.join] = bySource
                // The identities these links and the bases' arrays name, and of those the ones stored.
                var named = Set(bySource.values.joined().map { IdentityKey([$0]) })
                for base in rows.compactMap(\.base) {
                    named.formUnion(Self.elements(base[linked.column]).map { IdentityKey([$0]) })
                }
                let destination = StoredTable(table: layout.tables[linked.destinationTable], engine: engine)
                for key in named where try destination.state(identity: key.values) != nil {
                    destinations[linked.destinationTable, default: []].insert(key)
                }
            }
        }
    }

    /// `values` with each linked array attribute set to the row's links when those were edited.
    func apply(to values: [Value], base: [Value]?, entity: SyncSchema.EntitySync) -> [Value] {
        var values = values
        let source = IdentityKey(entity.table.identityValues(of: values))
        for linked in entity.linkedArrays {
            let known = destinations[linked.destinationTable] ?? []
            let current = (links[linked.join]?[source] ?? []).filter { known.contains(IdentityKey([$0])) }
            guard let base else {
                // Created locally: links given in the join table count when the attribute is empty.
                if !current.isEmpty, Self.elements(values[linked.column]).isEmpty {
                    values[linked.column] = .array(current.sorted { ValueText.display($0) < ValueText.display($1) })
                }
                continue
            }
            guard values[linked.column] == base[linked.column] else { continue }
            let ids = Self.elements(base[linked.column])
            let linkedNow = Set(current.map { IdentityKey([$0]) })
            let linkedBefore = Set(ids.map { IdentityKey([$0]) }.filter { known.contains($0) })
            guard linkedNow != linkedBefore else { continue }
            let kept = ids.filter { linkedNow.contains(IdentityKey([$0])) || !known.contains(IdentityKey([$0])) }
            let added = current.filter { !linkedBefore.contains(IdentityKey([$0])) }
                .sorted { ValueText.display($0) < ValueText.display($1) }
            values[linked.column] = .array(kept + added)
        }
        return values
    }

    /// The items of an array value; none for any other value.
    static func elements(_ value: Value) -> [Value] {
        if case .array(let items) = value { items } else { [] }
    }
}
