/// The checks of nested relationships that need every relationship and inverse decoded:
/// `identify_nested_by_parent_key: true` needs an inverse to-one connected by a foreign key, and
/// embedded relationships may not embed their own source again (the record's keys would build
/// objects for ever).
struct NestedChecks {
    let diagnostics: Diagnostics

    func check(_ entities: [EntityMapping]) {
        let model = MappingModel(entities: entities)
        for entity in entities {
            for relationship in own(entity, in: model) {
                if relationship.parentKey == .inverse, relationship.nested, !relationship.embedded {
                    checkInverseKey(relationship, of: entity, in: model)
                }
                if relationship.embedded { checkEmbeddingCycle(relationship, of: entity, in: model) }
            }
        }
    }

    /// The relationships `entity` declares itself: an inherited one was checked at its parent.
    private func own(_ entity: EntityMapping, in model: MappingModel) -> [RelationshipMapping] {
        let inherited = Set(entity.parent.flatMap(model.entity(named:))?.relationships.map(\.mark) ?? [])
        return entity.relationships.filter { !inherited.contains($0.mark) }
    }

    private func checkInverseKey(_ relationship: RelationshipMapping, of entity: EntityMapping, in model: MappingModel)
    {
        let inverse = relationship.inverse.flatMap {
            model.entity(named: relationship.destination)?.relationship(named: $0)
        }
        if let inverse, inverse.kind == .toOne, case .foreignKey = inverse.connection?.rule { return }
        diagnostics.error(
            relationship.mark,
            "'identify_nested_by_parent_key: true' of '\(entity.name).\(relationship.name)' needs an inverse to-one on '\(relationship.destination)' connected by 'foreign_key'; or name the attributes: {child attribute: parent attribute}"
        )
    }

    /// Reports an embedded relationship from which embedded relationships lead back to its source.
    private func checkEmbeddingCycle(
        _ relationship: RelationshipMapping, of entity: EntityMapping, in model: MappingModel
    ) {
        var reached: Set<String> = [relationship.destination]
        var frontier = [relationship.destination]
        while let name = frontier.popLast(), name != entity.name {
            for next in model.entity(named: name)?.relationships ?? [] where next.embedded {
                if reached.insert(next.destination).inserted { frontier.append(next.destination) }
            }
        }
        guard reached.contains(entity.name) else { return }
        diagnostics.error(
            relationship.mark,
            "embedded relationship '\(entity.name).\(relationship.name)' leads back to '\(entity.name)' through embedded relationships: the record's keys would build objects for ever"
        )
    }
}
