extension PersistedObjects {
    /// The stored links of a to-many relationship: each source's destination identities,
    /// in payload order for `ordered: true` (the join table's `position`, or the
    /// `<key>_position` column beside a child's foreign key), else in the store's order.
    ///
    /// ```swift
    /// let team = try objects.links(of: "CRMTeam", "members")[IdentityKey([.int(7)])]  // [3, 1, 2]
    /// ```
    ///
    /// - Throws: ``PersistError`` for an unknown entity, a relationship that is not a to-many,
    ///   or one whose links live in neither a join table nor a child's foreign-key column.
    public func links(of entity: String, _ relationship: String) throws -> [IdentityKey: [IdentityKey]] {
        let (type, _) = try lookup(entity)
        guard let position = type.relationshipIndex(relationship),
            type.mapping.relationships[position].kind == .toMany,
            let destination = schema.type(named: type.mapping.relationships[position].destination)
        else { throw PersistError.notToMany(entity: entity, relationship: relationship) }
        let join = layout.bindings[type.index].joins.first { $0.relationship == position }.map {
            layout.joinTables[$0.join]
        }
        let inverse = type.mapping.relationships[position].inverse.flatMap(destination.relationshipIndex)
        let foreignKey = inverse.flatMap { back in
            layout.bindings[destination.index].foreignKeys.first { $0.relationship == back }?.columns
        }
        return try transaction {
            if let join { return Self.ordered(try joinLinks(join)) }
            guard let inverse, let foreignKey else {
                throw PersistError.linksNotStored(entity: entity, relationship: relationship)
            }
            let place = layout.bindings[destination.index].positions.first { $0.relationship == inverse }?.column
            return Self.ordered(try childLinks(layout.table(of: destination), foreignKey: foreignKey, place: place))
        }
    }

    /// A source's link: its destination and its place (the scan order when the store keeps none).
    private typealias PlacedLink = (place: Int64, order: Int, destination: IdentityKey)

    private func joinLinks(_ join: JoinTableLayout) throws -> [IdentityKey: [PlacedLink]] {
        var links: [IdentityKey: [PlacedLink]] = [:]
        for (order, link) in try backend.scanLinks(join).enumerated() {
            let source = IdentityKey(Array(link.prefix(join.sourceColumnCount)))
            let destination = IdentityKey(join.destinationColumns.indices.map { link[$0] })
            links[source, default: []].append((Self.place(join.ordered ? link.last : nil), order, destination))
        }
        return links
    }

    private func childLinks(_ table: TableLayout, foreignKey: [Int], place: Int?) throws -> [IdentityKey: [PlacedLink]]
    {
        var links: [IdentityKey: [PlacedLink]] = [:]
        for (order, row) in try backend.scanRows(table).enumerated() {
            let parent = IdentityKey(foreignKey.map { row.values[$0] })
            guard !parent.isIncomplete else { continue }
            let destination = IdentityKey(table.identityValues(of: row.values))
            links[parent, default: []].append((Self.place(place.map { row.values[$0] }), order, destination))
        }
        return links
    }

    private static func place(_ value: Value?) -> Int64 {
        if case .int(let number)? = value { number } else { 0 }
    }

    private static func ordered(_ links: [IdentityKey: [PlacedLink]]) -> [IdentityKey: [IdentityKey]] {
        links.mapValues { placed in
            placed.sorted { ($0.place, $0.order) < ($1.place, $1.order) }.map(\.destination)
        }
    }
}
