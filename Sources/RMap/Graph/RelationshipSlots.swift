/// Where a root entity's table keeps the links of one relationship.
///
/// Entities of a family share their root's table, so a relationship is kept
/// by name, kind and destination table: a sub-entity's `owner` is its
/// parent's `owner`, and an object changing entity keeps its links.
struct RelationshipSlot: Hashable {
    let name: String
    let toMany: Bool
    /// The destination's root position: the table the links point into.
    let destinationRoot: Int
}

/// The relationship slots of every table and, per entity, the slot of each relationship.
struct RelationshipSlots {
    /// Per root position: its table's slots (empty for entities that are not roots).
    let slots: [[RelationshipSlot]]
    /// Per entity position, per relationship position: the slot in the root's table.
    let positions: [[Int]]

    init(types: [EntityType], typeNamed: (String) -> EntityType?) {
        var slots = Array(repeating: [RelationshipSlot](), count: types.count)
        var numbers = Array(repeating: [RelationshipSlot: Int](), count: types.count)
        positions = types.map { type in
            type.mapping.relationships.map { relationship in
                let slot = RelationshipSlot(
                    name: relationship.name, toMany: relationship.kind == .toMany,
                    destinationRoot: typeNamed(relationship.destination)?.rootIndex ?? type.rootIndex)
                if let number = numbers[type.rootIndex][slot] { return number }
                numbers[type.rootIndex][slot] = slots[type.rootIndex].count
                slots[type.rootIndex].append(slot)
                return slots[type.rootIndex].count - 1
            }
        }
        self.slots = slots
    }
}
