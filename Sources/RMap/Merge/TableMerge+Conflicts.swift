/// The conflicts of a ``TableMerge``: the columns both the server and a local edit changed, for
/// entities whose `on_conflict` is `fail`.
extension TableMerge {
    /// The columns both the server and a local edit changed, for entities whose `on_conflict` is `fail`.
    func conflicts(on engine: any SQLEngine) throws -> [ConflictError.Conflict] {
        guard holdsBases, family.contains(where: { $0.mapping.onConflict == .fail }), !sql.valueColumns.isEmpty else {
            return []
        }
        var found: [ConflictError.Conflict] = []
        let columns = sql.valueColumns.filter { $0 != table.discriminator }
        let identity = table.identity.map { sql.column("r", at: $0) }
        for position in columns {
            let type = table.columns[position].type
            let edited =
                "(\(sql.present(position, "r")) AND NOT (\(sql.same(position, "r", "b"))) AND "
                + "(t.\(sql.q(table.identityNames[0])) IS NULL OR (NOT (\(sql.same(position, "t", "b"))) AND NOT (\(sql.same(position, "t", "r"))))))"
            let query =
                "SELECT r.\(sql.q("_entity")), t.\(sql.q(table.identityNames[0])) IS NOT NULL, \(sql.column("b", at: position)), "
                + "\(sql.column("t", at: position)), \(sql.column("r", at: position)), \(identity.joined(separator: ", ")) "
                + "FROM \(rows) JOIN \(base) AS b ON \(sql.sameIdentity("b", "r")) "
                + "LEFT JOIN \(target) AS t ON \(sql.sameIdentity("t", "r")) WHERE \(policy(.fail)) AND \(edited) AND \(notTombstone)"
            let identityTypes = table.identity.map { table.columns[$0].type }
            try engine.query(query, tombstone.parameters, types: [.int, .bool, type, type, type] + identityTypes) {
                row in
                guard case .int(let entity) = row[0], layout.schema.types.indices.contains(Int(entity)) else { return }
                let identity = IdentityKey(Array(row[5...]))
                found.append(
                    ConflictError.Conflict(
                        entity: layout.schema.types[Int(entity)].name, identity: identity.description,
                        attribute: table.reportedName(ofColumn: position), base: ValueText.display(row[2]),
                        local: row[1] == .bool(true) ? ValueText.display(row[3]) : "(deleted)",
                        remote: ValueText.display(row[4])))
            }
        }
        return found
    }
}
