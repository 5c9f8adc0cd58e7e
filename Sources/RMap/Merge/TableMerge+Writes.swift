/// The writes of a ``TableMerge``: new objects inserted, the payload applied to rows in sync with
/// the server, merged three ways into rows with a base, and local creations the server now has
/// settled; a write that would change nothing is not run.
extension TableMerge {
    /// True when some row of `from` (a `FROM ... WHERE ...` clause) exists: a write that would
    /// change nothing is not run, so a run that changes nothing leaves the store's file as it was.
    private func any(_ from: String, _ parameters: [Value], on engine: any SQLEngine) throws -> Bool {
        try engine.exists("SELECT 1 \(from)", parameters)
    }

    /// Inserts the objects the store holds nothing for, in identity order.
    ///
    /// - Parameter new: how many there are, as ``count(on:into:)`` counted them.
    func insertNew(on engine: any SQLEngine, new: Int) throws {
        guard new > 0 else { return }
        var parameters: [Value] = []
        let values = table.columns.indices.map { position -> String in
            let (value, bound) = newValue(position)
            parameters += bound
            return value
        }
        // The merged rows' key order (SQLite: their rowid's, a lone whole-number key): no sort.
        let order = sql.stage.keyColumns.map { "r.\(sql.q($0.name))" }.joined(separator: ", ")
        let stored =
            (holdsRows ? "NOT \(sql.exists(in: table.name, like: "r")) AND " : "")
            + (holdsBases ? "NOT \(sql.exists(in: table.baseName, like: "r")) AND " : "")
        let from = "FROM \(rows) WHERE \(stored)\(notTombstone)"
        try engine.willInsert(into: table.name) { new }
        try engine.execute(
            "INSERT INTO \(target) (\(sql.columnList)) SELECT \(values.joined(separator: ", ")) \(from) ORDER BY \(order)",
            parameters + tombstone.parameters)
        try engine.didInsert(into: table.name)
    }

    /// Applies the payload to stored rows without a base (the server's state).
    ///
    /// - Parameter updated: how many stored rows the payload changes, with or without a base, as
    ///   ``count(on:into:)`` counted them.
    func updateInSync(on engine: any SQLEngine, updated: Int) throws {
        let columns = sql.valueColumns
        guard holdsRows, updated > 0, !columns.isEmpty else { return }
        let sets = columns.map { position -> String in
            let name = sql.q(table.columns[position].name)
            if position == table.discriminator { return "\(name) = \(entities.typeValueOfRow)" }
            return
                "\(name) = CASE WHEN \(sql.present(position, "r")) THEN \(sql.column("r", at: position)) ELSE \(sql.column("t", at: position)) END"
        }
        let condition =
            "\(sql.sameIdentity("t", "r")) AND NOT \(sql.exists(in: table.baseName, like: "r")) "
            + "AND \(changesAny("t")) AND \(notTombstone)"
        guard try any("FROM \(target) AS t, \(rows) WHERE \(condition)", tombstone.parameters, on: engine) else {
            return
        }
        try engine.execute(
            "UPDATE \(target) AS t SET \(sets.joined(separator: ", ")) FROM \(rows) WHERE \(condition)",
            tombstone.parameters)
    }

    /// Merges the payload three ways into rows with a base, then into their bases; a row that is its
    /// server state again loses its base; an object deleted locally comes back when its entity's
    /// policy is `remote` and the server changed it.
    func updateThreeWay(on engine: any SQLEngine) throws {
        let columns = sql.valueColumns.filter { $0 != table.discriminator }
        guard holdsBases, !columns.isEmpty else { return }
        // Nothing to do unless a payload changes a base: the rows with one follow their base.
        let differs = columns.map { "(\(sql.present($0, "r")) AND NOT (\(sql.same($0, "r", "b"))))" }.joined(
            separator: " OR ")
        guard
            try any(
                "FROM \(rows) JOIN \(base) AS b ON \(sql.sameIdentity("b", "r")) WHERE (\(differs)) AND \(notTombstone)",
                tombstone.parameters, on: engine)
        else { return }
        let rowSets = columns.map { position -> String in
            let name = sql.q(table.columns[position].name)
            let (remote, local) = (sql.column("r", at: position), sql.column("t", at: position))
            return
                "\(name) = CASE WHEN NOT (\(sql.present(position, "r"))) OR \(sql.same(position, "r", "b")) THEN \(local) "
                + "WHEN \(sql.same(position, "t", "b")) OR \(sql.same(position, "t", "r")) OR \(policyIsRemote) THEN \(remote) ELSE \(local) END"
        }
        let withBase =
            "FROM \(rows), \(base) AS b WHERE \(sql.sameIdentity("t", "r")) AND \(sql.sameIdentity("b", "r")) AND \(notTombstone)"
        try engine.execute(
            "UPDATE \(target) AS t SET \(rowSets.joined(separator: ", ")) \(withBase)", tombstone.parameters)
        let revived = columns.map { "(\(sql.present($0, "r")) AND NOT (\(sql.same($0, "r", "b"))))" }.joined(
            separator: " OR ")
        let comeBack = table.columns.indices.map { position -> String in
            if table.identity.contains(position) || position == table.discriminator {
                return sql.column("b", at: position)
            }
            return
                "CASE WHEN \(sql.present(position, "r")) THEN \(sql.column("r", at: position)) ELSE \(sql.column("b", at: position)) END"
        }
        try engine.execute(
            "INSERT INTO \(target) (\(sql.columnList)) SELECT \(comeBack.joined(separator: ", ")) FROM \(rows) JOIN \(base) AS b "
                + "ON \(sql.sameIdentity("b", "r")) WHERE NOT \(sql.exists(in: table.name, like: "r")) AND \(policyIsRemote) "
                + "AND (\(revived)) AND \(notTombstone)",
            tombstone.parameters)
        let baseSets = columns.map { position -> String in
            let name = sql.q(table.columns[position].name)
            return
                "\(name) = CASE WHEN \(sql.present(position, "r")) THEN \(sql.column("r", at: position)) ELSE \(sql.column("b", at: position)) END"
        }
        try engine.execute(
            "UPDATE \(base) AS b SET \(baseSets.joined(separator: ", ")) FROM \(rows) WHERE \(sql.sameIdentity("b", "r")) AND \(notTombstone)",
            tombstone.parameters)
        let equal = table.columns.indices.map { sql.same($0, "t", "b") }.joined(separator: " AND ")
        try engine.execute(
            "DELETE FROM \(base) AS b WHERE EXISTS (SELECT 1 FROM \(rows) WHERE \(sql.sameIdentity("r", "b")) AND \(notTombstone)) "
                + "AND EXISTS (SELECT 1 FROM \(target) AS t WHERE \(sql.sameIdentity("t", "b")) AND \(equal))",
            tombstone.parameters)
    }

    /// Forgets that identities the server now has were created locally.
    func settleLocalCreations(on engine: any SQLEngine, marks: String) throws {
        let named = "WHERE EXISTS (SELECT 1 FROM \(rows) WHERE \(sql.sameIdentity("r", "m")))"
        guard try any("FROM \(sql.q(marks)) AS m \(named)", [], on: engine) else { return }
        try engine.execute("DELETE FROM \(sql.q(marks)) AS m \(named)")
    }
}
