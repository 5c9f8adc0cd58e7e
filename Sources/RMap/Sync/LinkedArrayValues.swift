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

    /// Reads the links and destination identities that the entities of table `table` need.
    init(sync: SyncSchema, table: Int, backend: any SyncBackend) throws {
        for entity in sync.entities where entity.tableIndex == table {
            for linked in entity.linkedArrays {
                if links[linked.join] == nil {
                    let join = sync.layout.joinTables[linked.join]
                    var bySource: [IdentityKey: [Value]] = [:]
                    for link in try backend.scanLinks(join) {
                        let source = IdentityKey(Array(link.prefix(join.sourceColumnCount)))
                        bySource[source, default: []].append(link[join.sourceColumnCount])
                    }
                    links[linked.join] = bySource
                }
                if destinations[linked.destinationTable] == nil {
                    let stored = try backend.identities(sync.layout.tables[linked.destinationTable])
                    destinations[linked.destinationTable] = Set(stored.map { IdentityKey($0.identity) })
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

    private static func elements(_ value: Value) -> [Value] {
        if case .array(let items) = value { items } else { [] }
    }
}
