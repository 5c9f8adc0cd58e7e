extension StoredModel {
    /// The rows of `root`'s table (a root entity's) with these identities, each with the entity
    /// it is an object of, by identity; identities without a row are left out. Read in statements
    /// of at most ``identitiesPerStatement`` identities.
    ///
    /// - Throws: the engine's errors.
    package func rows(withIdentities identities: [[Value]], of root: EntityType, on engine: any SQLEngine) throws
        -> [IdentityKey: (type: EntityType, row: [Value])]
    {
        let table = table(of: root)
        let position = binding(of: root).table
        guard !table.identity.isEmpty, !(try engine.columns(of: table.name)).isEmpty else { return [:] }
        var found: [IdentityKey: (type: EntityType, row: [Value])] = [:]
        let complete = identities.filter { !$0.contains(where: \.isNull) }
        for start in stride(from: 0, to: complete.count, by: Self.identitiesPerStatement) {
            let chunk = complete[start..<min(start + Self.identitiesPerStatement, complete.count)]
            var select = ObjectSelect(table: table, dialect: engine.dialect)
            let one =
                "(" + table.identity.map { select.column(table.columns[$0].name) + " = ?" }.joined(separator: " AND ")
                + ")"
            select.condition(chunk.map { _ in one }.joined(separator: " OR "), chunk.flatMap { $0 })
            let (sql, parameters) = select.sql(after: nil, limit: nil)
            try engine.query(sql, parameters, types: select.types) { values in
                let row = Array(values[1...table.columns.count])
                guard let type = entity(ofRow: row, table: position) else { return }
                found[IdentityKey(table.identityValues(of: row))] = (type, row)
            }
        }
        return found
    }

    /// How many identities one statement of ``rows(withIdentities:of:on:)`` looks up.
    static let identitiesPerStatement = 100
}
