/// A nested to-many relationship whose children hold the link in their foreign key (`projects:
/// { nested: true }` with the to-one `owner` in `projects.owner_id`): the stage tracks which
/// occurrence set a child's key and which named the parent's set (``StageLayout``), and the merge
/// releases the children a set leaves out (``ReleasedChildrenSQL``).
struct ChildHeldLink {
    /// The parent entity that has the relationship.
    let parent: EntityType
    /// The relationship's name.
    let relationship: String
    /// The child entity.
    let child: EntityType
    /// The child table's foreign-key columns, in the parent's identity order.
    let columns: [Int]
    /// Whether the relationship is `assignment: union`.
    let union: Bool

    /// The nested to-many relationships of `schema` whose children hold the link in `store`.
    static func all(schema: GraphSchema, store: StoreLayout) -> [ChildHeldLink] {
        var links: [ChildHeldLink] = []
        for type in schema.types {
            for relationship in type.mapping.relationships where relationship.nested && relationship.kind == .toMany {
                guard let inverse = relationship.inverse, let child = schema.type(named: relationship.destination),
                    let back = child.relationshipIndex(inverse),
                    let columns = store.bindings[child.index].foreignKeys.first(where: { $0.relationship == back })?
                        .columns
                else { continue }
                links.append(
                    ChildHeldLink(
                        parent: type, relationship: relationship.name, child: child, columns: columns,
                        union: relationship.assignment == .union))
            }
        }
        return links
    }
}
