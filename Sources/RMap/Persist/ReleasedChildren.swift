/// The children a `replace` nested to-many no longer lists, when the link is the
/// child's foreign-key column (`projects: { nested: true }` with the to-one
/// `owner` kept in `projects.owner_id`).
///
/// A parent whose payload carried the relationship's key (a list, `[]` or
/// `null`) names its whole set: a stored child whose base foreign key holds
/// that parent and which the set leaves out loses its foreign key, exactly as
/// a join table's links are replaced. A parent whose payload lacked the key
/// keeps its children (a partial payload never wipes data).
struct ReleasedChildren {
    /// One foreign key of a child table and the parents that set it in this run.
    ///
    /// Parents and children are marked by their rows in the graph (a bit each), not kept as
    /// identities: a nested file's 1.3M children took 150 MB and 2 s as a set of identities.
    struct Group {
        /// The child table's position in ``StoreLayout/tables``.
        var table: Int
        /// The child table's foreign-key columns, in the parent's identity order.
        var columns: [Int]
        /// The child entity, for counts and conflicts.
        var entity: EntityType
        /// By root position, the rows of parents whose payload set the relationship.
        var parents: [Int: RowSet] = [:]
        /// The rows (in the child entity's root table) of the children those parents list.
        var listed = RowSet()

        /// True when a parent whose payload set the relationship has this identity.
        func isParent(_ identity: [Value], in graph: ObjectGraph) -> Bool {
            let key = IdentityKey(identity)
            return parents.contains { root, rows in graph.table(root).row(identity: key).map(rows.contains) ?? false }
        }

        /// True when some parent lists the child of this identity.
        func lists(_ identity: IdentityKey, in graph: ObjectGraph) -> Bool {
            graph.table(entity.rootIndex).row(identity: identity).map(listed.contains) ?? false
        }

        /// True for a child of this group's table whose payload left the foreign key unset and
        /// which no parent lists: released when its base points at one of ``parents``.
        func mayRelease(_ row: [Value?], _ identity: IdentityKey, table: Int, in graph: ObjectGraph) -> Bool {
            self.table == table && columns.allSatisfy { row[$0] == nil } && !lists(identity, in: graph)
        }
    }

    /// The groups that some parent set in this run.
    let groups: [Group]
    private let graph: ObjectGraph

    /// Clears the foreign key in `row` (a child's incoming row in table `table`) when the
    /// payload left it unset and its base points at a parent that no longer lists it.
    func release(_ row: inout [Value?], base: [Value]?, identity: [Value], table: Int) {
        guard let base, !groups.isEmpty else { return }
        let key = IdentityKey(identity)
        for group in groups where group.mayRelease(row, key, table: table, in: graph) {
            guard group.isParent(group.columns.map { base[$0] }, in: graph) else { continue }
            for column in group.columns { row[column] = .null }
        }
    }

    /// True when ``release(_:base:identity:table:)`` may clear a foreign key of `row`, which
    /// depends on its base; false when the row is released of nothing whatever its base.
    func mayRelease(_ row: [Value?], identity: [Value], table: Int) -> Bool {
        guard !groups.isEmpty else { return false }
        let key = IdentityKey(identity)
        return groups.contains { $0.mayRelease(row, key, table: table, in: graph) }
    }

    init(graph: ObjectGraph, layout: StoreLayout) {
        let schema = graph.schema
        self.graph = graph
        var groups: [Group] = []
        let groupOf: [[(relationship: Int, group: Int)]] = schema.types.map { type in
            type.mapping.relationships.indices.compactMap { position in
                guard let group = Self.group(type, position, schema: schema, layout: layout) else { return nil }
                if let known = groups.firstIndex(where: { $0.table == group.table && $0.columns == group.columns }) {
                    return (position, known)
                }
                groups.append(group)
                return (position, groups.count - 1)
            }
        }
        // Only the tables of parents with such a relationship are read.
        let parentRoots = schema.roots.filter { root in
            schema.family(of: root).contains { !groupOf[$0.index].isEmpty }
        }
        for root in parentRoots {
            for object in graph.objects(root: root.index) {
                for (relationship, group) in groupOf[object.type.index] where object.isAssigned(at: relationship) {
                    guard !object.identity.isIncomplete else { continue }
                    groups[group].parents[root.index, default: RowSet()].insert(object.row)
                    for child in object.related(at: relationship) { groups[group].listed.insert(child.row) }
                }
            }
        }
        self.groups = groups.filter { !$0.parents.isEmpty }
    }

    /// The group of a nested `replace` to-many whose inverse is a to-one foreign-key column.
    private static func group(_ type: EntityType, _ position: Int, schema: GraphSchema, layout: StoreLayout)
        -> Group?
    {
        let relationship = type.mapping.relationships[position]
        guard relationship.nested, relationship.kind == .toMany, relationship.assignment == .replace,
            let inverse = relationship.inverse, let child = schema.type(named: relationship.destination),
            let back = child.relationshipIndex(inverse),
            let columns = layout.bindings[child.index].foreignKeys.first(where: { $0.relationship == back })?.columns
        else { return nil }
        return Group(table: layout.bindings[child.index].table, columns: columns, entity: child)
    }
}
