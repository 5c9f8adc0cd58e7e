/// The stored links of a model's to-many relationships, read back in order
/// (``SyncStore/links(of:_:)``): from the join table, or from the foreign keys of the
/// destination's rows.
///
/// ```swift
/// let members = try ToManyLinks(sync: schema, transactions: transactions).links(of: "CRMTeam", "members")
/// ```
struct ToManyLinks {
    let sync: SyncSchema
    let transactions: SyncTransactions

    /// Each source's destination identities (what ``SyncStore/links(of:_:)`` returns), in one read.
    ///
    /// - Throws: ``PersistError`` for an unknown entity, a relationship that is not a to-many,
    ///   or one whose links live in neither a join table nor a child's foreign-key column.
    func links(of entity: String, _ relationship: String) throws -> [IdentityKey: [IdentityKey]] {
        guard let type = sync.schema.type(named: entity) else { throw PersistError.unknownEntity(entity) }
        guard let position = type.relationshipIndex(relationship),
            type.mapping.relationships[position].kind == .toMany,
            let destination = sync.schema.type(named: type.mapping.relationships[position].destination)
        else { throw PersistError.notToMany(entity: entity, relationship: relationship) }
        let layout = sync.layout
        let join = layout.bindings[type.index].joins.first { $0.relationship == position }.map {
            layout.joinTables[$0.join]
        }
        let inverse = type.mapping.relationships[position].inverse.flatMap(destination.relationshipIndex)
        let foreignKey = inverse.flatMap { back in
            layout.bindings[destination.index].foreignKeys.first { $0.relationship == back }?.columns
        }
        let engine = try transactions.engine
        let q = engine.dialect.quote
        let query: (sql: String, types: [AttributeType], sources: Int)
        if let join {
            let sources = join.columns.prefix(join.sourceColumnCount)
            let order = sources.map(\.name) + (join.ordered ? ["position"] : []) + join.destinationColumns.map(\.name)
            query = (
                "SELECT \((sources + join.destinationColumns).map { q($0.name) }.joined(separator: ", ")) "
                    + "FROM \(q(join.name)) ORDER BY \(order.map { $0 == "position" ? "COALESCE(\(q($0)), 0)" : q($0) }.joined(separator: ", "))",
                (sources + join.destinationColumns).map(\.type), sources.count
            )
        } else if let inverse, let foreignKey {
            let table = layout.table(of: destination)
            let place = layout.bindings[destination.index].positions.first { $0.relationship == inverse }?.column
            let keys = foreignKey.map { q(table.columns[$0].name) }
            let identity = table.identityNames.map(q)
            let order =
                keys + (place.map { ["COALESCE(\(q(table.columns[$0].name)), 0)"] } ?? []) + [
                    q(engine.dialect.rowHandle)
                ]
            query = (
                "SELECT \((keys + identity).joined(separator: ", ")) FROM \(q(table.name)) "
                    + "WHERE \(keys.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")) ORDER BY \(order.joined(separator: ", "))",
                (foreignKey + table.identity).map { table.columns[$0].type }, keys.count
            )
        } else {
            throw PersistError.linksNotStored(entity: entity, relationship: relationship)
        }
        return try transactions.read {
            var links: [IdentityKey: [IdentityKey]] = [:]
            try engine.query(query.sql, [], types: query.types) { row in
                links[IdentityKey(Array(row.prefix(query.sources))), default: []]
                    .append(IdentityKey(Array(row.dropFirst(query.sources))))
            }
            return links
        }
    }
}
