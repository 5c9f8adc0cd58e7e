/// A one-to-one connected by foreign key: a to-one whose `connect: {foreign_key: ...}` compares
/// the source's attributes with the destination's, and whose inverse is a to-one too (a person's
/// `desk` by `deskId`, and the desk's `occupant`). The attributes stay as the server sent them, so
/// two sources may name one destination; the store keeps which of them holds it in a column of
/// the source's table of its own, `_rmap_holds_<relationship>` (docs/mapping.md, "Inverses"):
/// `0` for a source that let go, null or `1` for one that holds (rows stored before the column
/// existed hold). Neither the diff nor a push sees it: it is not one of the table's
/// ``TableLayout/columns``, only of its ``TableLayout/holders``.
///
/// ```swift
/// OneToOneHolder.all(in: schema).map(\.column.name)   // ["_rmap_holds_desk"]
/// ```
struct OneToOneHolder {
    /// The entity that declares the to-one.
    let source: EntityType
    /// The to-one's destination entity.
    let destination: EntityType
    /// The holder column, in the source's table.
    let column: ColumnLayout
    /// The compared attributes, as attribute positions: the source's and the destination's.
    let pairs: [(source: Int, destination: Int)]

    /// The prefix of holder columns' names.
    static let prefix = "_rmap_holds_"

    /// The one-to-one of `source`'s relationship at `index`, when it is one.
    init?(_ source: EntityType, relationship index: Int, in schema: GraphSchema) {
        let relationship = source.mapping.relationships[index]
        guard relationship.kind == .toOne, case .foreignKey(let names)? = relationship.connection?.rule,
            let destination = schema.type(named: relationship.destination),
            let inverse = relationship.inverse.flatMap(destination.mapping.relationship(named:)), inverse.kind == .toOne
        else { return nil }
        let pairs = names.compactMap { pair -> (source: Int, destination: Int)? in
            guard let from = source.attributeIndex(pair.source), let to = destination.attributeIndex(pair.destination)
            else {
                return nil
            }
            return (from, to)
        }
        guard !pairs.isEmpty, pairs.count == names.count else { return nil }
        self.source = source
        self.destination = destination
        self.pairs = pairs
        column = ColumnLayout(name: Self.prefix + relationship.name, type: .int)
    }

    /// The one-to-ones of a table's entities (its root's family), one per holder column: a
    /// sub-entity inherits its parent's.
    static func all(of family: [EntityType], in schema: GraphSchema) -> [OneToOneHolder] {
        var found: [OneToOneHolder] = []
        for type in family {
            for index in type.mapping.relationships.indices {
                guard let holder = OneToOneHolder(type, relationship: index, in: schema),
                    !found.contains(where: { $0.column.name == holder.column.name })
                else { continue }
                found.append(holder)
            }
        }
        return found
    }

    /// The one-to-one whose inverse is `source`'s relationship at `index` (a desk's `occupant`).
    static func inverse(of source: EntityType, relationship index: Int, in schema: GraphSchema) -> OneToOneHolder? {
        let relationship = source.mapping.relationships[index]
        guard relationship.kind == .toOne, let destination = schema.type(named: relationship.destination),
            let name = relationship.inverse, let inverse = destination.relationshipIndex(name)
        else { return nil }
        return OneToOneHolder(destination, relationship: inverse, in: schema)
    }
}
