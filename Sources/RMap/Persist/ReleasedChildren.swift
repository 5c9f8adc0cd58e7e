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
    struct Group {
        /// The child table's position in ``StoreLayout/tables``.
        var table: Int
        /// The child table's foreign-key columns, in the parent's identity order.
        var columns: [Int]
        /// The child entity, for counts and conflicts.
        var entity: EntityType
        /// Parents whose payload set the relationship.
        var parents = Set<IdentityKey>()
        /// The children those parents list.
        var listed = Set<IdentityKey>()

        /// True for a child of this group's table whose payload left the foreign key unset and
        /// which no parent lists: released when its base points at one of ``parents``.
        func mayRelease(_ row: [Value?], _ identity: IdentityKey, table: Int) -> Bool {
            self.table == table && columns.allSatisfy { row[$0] == nil } && !listed.contains(identity)
        }
    }

    /// The groups that some parent set in this run.
    let groups: [Group]

    /// Clears the foreign key in `row` (a child's incoming row in table `table`) when the
    /// payload left it unset and its base points at a parent that no longer lists it.
    func release(_ row: inout [Value?], base: [Value]?, identity: [Value], table: Int) {
        guard let base, !groups.isEmpty else { return }
        let key = IdentityKey(identity)
        for group in groups where group.mayRelease(row, key, table: table) {
            guard group.parents.contains(IdentityKey(group.columns.map { base[$0] })) else { continue }
            for column in group.columns { row[column] = .null }
        }
    }

    /// True when ``release(_:base:identity:table:)`` may clear a foreign key of `row`, which
    /// depends on its base; false when the row is released of nothing whatever its base.
    func mayRelease(_ row: [Value?], identity: [Value], table: Int) -> Bool {
        guard !groups.isEmpty else { return false }
        let key = IdentityKey(identity)
        return groups.contains { $0.mayRelease(row, key, table: table) }
    }

    init(graph: ObjectGraph, layout: StoreLayout) {
        let schema = graph.schema
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
                    let identity = object.identity
                    guard !identity.isIncomplete else { continue }
                    groups[group].parents.insert(identity)
                    for child in object.related(at: relationship) { groups[group].listed.insert(child.identity) }
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
