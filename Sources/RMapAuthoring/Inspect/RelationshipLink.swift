import RMap

/// A relationship drawn once in a diagram, with its inverse when the model has
/// one: `projects` / `owner` is one link, not two.
struct RelationshipLink {
    /// The entity that declares ``relationship``.
    var source: EntityMapping
    /// The relationship drawn, read from ``source`` to its destination.
    var relationship: RelationshipMapping
    /// The inverse relationship on the destination, when there is one.
    var inverse: RelationshipMapping?

    /// The label: `projects`, or `projects / owner` with the inverse named.
    var label: String {
        inverse.map { "\(relationship.name) / \($0.name)" } ?? relationship.name
    }

    /// Every relationship declared in the model, each inverse pair once, read
    /// from the to-many side of a one-to-many pair and otherwise from the side
    /// declared first. Inherited relationships are drawn on the entity that declares them.
    static func links(in model: MappingModel) -> [RelationshipLink] {
        var drawn: Set<String> = []
        var links: [RelationshipLink] = []
        for entity in model.entities {
            for relationship in InspectText.ownRelationships(of: entity, in: model)
            where !drawn.contains(id(entity.name, relationship.name)) {
                var link = RelationshipLink(source: entity, relationship: relationship, inverse: nil)
                if let (destination, inverse) = self.inverse(of: relationship, on: entity, in: model) {
                    drawn.insert(id(destination.name, inverse.name))
                    link.inverse = inverse
                    if relationship.kind == .toOne, inverse.kind == .toMany {
                        link = RelationshipLink(source: destination, relationship: inverse, inverse: relationship)
                    }
                }
                drawn.insert(id(entity.name, relationship.name))
                links.append(link)
            }
        }
        return links
    }

    private static func id(_ entity: String, _ relationship: String) -> String { "\(entity).\(relationship)" }

    /// The destination entity declaring the inverse of `relationship`, and that inverse.
    private static func inverse(
        of relationship: RelationshipMapping, on entity: EntityMapping, in model: MappingModel
    ) -> (EntityMapping, RelationshipMapping)? {
        guard let destination = model.entity(named: relationship.destination) else { return nil }
        let candidate =
            relationship.inverse.flatMap(destination.relationship(named:))
            ?? destination.relationships.first {
                $0.inverse == relationship.name && model.entity(entity, isKindOf: $0.destination)
            }
        guard let inverse = candidate else { return nil }
        let declaring = model.entities.first { candidate in
            model.entity(destination, isKindOf: candidate.name)
                && InspectText.ownRelationships(of: candidate, in: model).contains { $0.name == inverse.name }
        }
        return (declaring ?? destination, inverse)
    }
}
