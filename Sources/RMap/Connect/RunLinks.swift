/// The links the run's objects have through one relationship, as a query a key path joins
/// through (docs/mapping.md, "Key paths"): `s0, ..., d0, ..., _pos` (the source's identity, the
/// destination's, the link's place). A key path reaches only objects of the run, through:
///
/// - a nested relationship: the children's foreign-key column (the inverse's), the parent's
///   (a nested to-one), or the nested links' table (the parent's last occurrence that named
///   the set, or every one for a `union`);
/// - a connection: the links tables of its steps (one per entity of the family that has it);
/// - the inverse of either, read the other way.
struct RunLinks {
    let layout: StageLayout
    let dialect: any SQLDialect.Type
    /// The connection steps, by number (their links tables' numbers).
    let steps: [ConnectionStep]
    /// The steps whose links tables exist.
    let kept: Set<Int>

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// The query of `name`'s links for objects of `entity`'s family; `nil` when the run keeps none.
    func query(entity: EntityType, relationship name: String) -> String? {
        guard let relationship = entity.mapping.relationship(named: name),
            let destination = layout.schema.type(named: relationship.destination)
        else { return nil }
        if relationship.connection != nil { return connected(entity: entity, relationship: name) }
        if relationship.nested { return nested(entity: entity, relationship, destination: destination) }
        // An inverse: the relationship on the destination that names this one, read backwards.
        for member in layout.schema.family(of: destination) {
            for other in member.mapping.relationships
            where other.destination == entity.name || isAncestor(other.destination, of: entity) {
                let namesBack = other.inverse == name || relationship.inverse == other.name
                guard namesBack, other.connection != nil || other.nested,
                    let forward = query(entity: member, relationship: other.name)
                else { continue }
                return reversed(forward, forwardSource: member, forwardDestinations: identityCount(of: entity))
            }
        }
        return nil
    }

    private func isAncestor(_ name: String, of entity: EntityType) -> Bool {
        layout.schema.model.entity(entity.mapping, isKindOf: name)
    }

    private func identityCount(of type: EntityType) -> Int { layout.table(of: type).table.identity.count }

    /// The links tables of the steps that connect `name` on the family.
    private func connected(entity: EntityType, relationship name: String) -> String? {
        let family = Set(layout.schema.family(of: entity).map(\.index))
        let tables = steps.enumerated().filter { number, step in
            kept.contains(number) && step.relationship.name == name && family.contains(step.source.index)
        }.map { number, step in
            let names =
                (0..<identityCount(of: step.source)).map { q("s\($0)") }
                + (0..<identityCount(of: step.destination)).map { q("d\($0)") } + [q("_pos")]
            return "SELECT \(names.joined(separator: ", ")) FROM \(q(StepLinks.name(number)))"
        }
        return tables.isEmpty ? nil : tables.joined(separator: " UNION ALL ")
    }

    /// A nested relationship's links, from the staged rows.
    private func nested(entity: EntityType, _ relationship: RelationshipMapping, destination: EntityType) -> String? {
        let parentBinding = layout.store.bindings[entity.index]
        let parentStage = layout.table(of: entity)
        let parentIdentity = parentStage.table.identityNames
        if let columns = parentBinding.foreignKeys.first(where: {
            entity.mapping.relationships[$0.relationship].name == relationship.name
        })?.columns {
            let names =
                parentIdentity.enumerated().map { "p.\(q($1)) AS \(q("s\($0)"))" }
                + columns.enumerated().map { "p.\(q(parentStage.table.columns[$1].name)) AS \(q("d\($0)"))" }
            let carried = columns.map { "p.\(q(parentStage.table.columns[$0].name)) IS NOT NULL" }.joined(
                separator: " AND ")
            return
                "SELECT \(names.joined(separator: ", ")), 0 AS \(q("_pos")) FROM \(q(parentStage.rowsName)) AS p WHERE \(carried)"
        }
        if let links = layout.nestedLinks.first(where: { link in
            parentBinding.joins.contains {
                $0.join == link.join && entity.mapping.relationships[$0.relationship].name == relationship.name
            }
        }) {
            let join = links.layout
            let columns = join.columns.map(\.name)
            let sources = columns.prefix(join.sourceColumnCount).enumerated().map { "n.\(q($1)) AS \(q("s\($0)"))" }
            let destinations = join.destinationColumns.enumerated().map { "n.\(q($1.name)) AS \(q("d\($0)"))" }
            let place = join.ordered ? "n.\(q("position"))" : "0"
            guard let slot = parentStage.assignedSlot(relationship.name) else { return nil }
            let parent = zip(parentIdentity, columns.prefix(join.sourceColumnCount)).map { "p.\(q($0)) = n.\(q($1))" }
                .joined(separator: " AND ")
            let occurrence = links.kept("n", by: "p", slot: slot, dialect: dialect)
            return "SELECT \((sources + destinations).joined(separator: ", ")), \(place) AS \(q("_pos")) "
                + "FROM \(q(links.name)) AS n JOIN \(q(parentStage.rowsName)) AS p ON \(parent) AND \(occurrence)"
        }
        // The children hold the link: their inverse's foreign-key column.
        guard let inverse = relationship.inverse else { return nil }
        let childStage = layout.table(of: destination)
        for member in layout.schema.family(of: destination) {
            guard let position = member.relationshipIndex(inverse) else { continue }
            let binding = layout.store.bindings[member.index]
            guard let columns = binding.foreignKeys.first(where: { $0.relationship == position })?.columns else {
                continue
            }
            let place =
                binding.positions.first { $0.relationship == position }.map {
                    "c.\(q(childStage.table.columns[$0.column].name))"
                } ?? "0"
            let names =
                columns.enumerated().map { "c.\(q(childStage.table.columns[$1].name)) AS \(q("s\($0)"))" }
                + childStage.table.identityNames.enumerated().map { "c.\(q($1)) AS \(q("d\($0)"))" }
            let carried = columns.map { "c.\(q(childStage.table.columns[$0].name)) IS NOT NULL" }.joined(
                separator: " AND ")
            return
                "SELECT \(names.joined(separator: ", ")), \(place) AS \(q("_pos")) FROM \(q(childStage.rowsName)) AS c WHERE \(carried)"
        }
        return nil
    }

    /// A links query read backwards: destinations become sources, each one's in the order the
    /// forward sources came in the run (a to-many inverse lists its sources in their order).
    private func reversed(_ query: String, forwardSource: EntityType, forwardDestinations: Int) -> String {
        let stage = layout.table(of: forwardSource)
        let back = (0..<forwardDestinations).map { "f.\(q("d\($0)")) AS \(q("s\($0)"))" }
        let names = stage.table.identityNames.indices.map { "f.\(q("s\($0)")) AS \(q("d\($0)"))" }
        let source = stage.table.identityNames.enumerated().map { "r.\(q($1)) = f.\(q("s\($0)"))" }
            .joined(separator: " AND ")
        return "SELECT \((back + names).joined(separator: ", ")), coalesce(r.\(q("_seq")), 0) AS \(q("_pos")) "
            + "FROM (\(query)) AS f LEFT JOIN \(q(stage.rowsName)) AS r ON \(source)"
    }
}
