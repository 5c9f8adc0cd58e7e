/// `modified_by` (docs/mapping.md, "Modification attribute"), RestKit's `modificationAttribute`
/// (`testThatDateDecensionCausesSkipPropertyMappingToReturnYES`): an object of the run whose
/// payload's value of that attribute is older than the stored object's server state (its base,
/// or its row when it has none) is stale, and one whose value is equal is unchanged; neither is
/// merged (not its values, not its relationships): its merged row leaves the run for the
/// table of objects seen unchanged (``UnchangedObjects``), so it is no orphan either. A record
/// without the value, a null, an object the store does not hold or holds without the value is
/// merged as usual.
struct StaleRecords {
    let layout: StageLayout
    let dialect: any SQLDialect.Type

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// Moves the objects not newer than the store's out of the merged rows into `unchanged`.
    ///
    /// - Returns: the stale ones (older than the store's), counted by entity index.
    func skip(into unchanged: inout UnchangedObjects, on engine: any SQLEngine) throws -> [Int: Int] {
        var stale: [Int: Int] = [:]
        for type in layout.schema.types {
            guard let name = type.mapping.modifiedBy, let attribute = type.attributeIndex(name) else { continue }
            let stage = layout.table(of: type)
            let table = stage.table
            let sql = StagedSQL(stage: stage, dialect: dialect)
            let position = layout.store.bindings[type.index].attributeColumns[attribute]
            let column = table.columns[position]
            let sameAs = { (alias: String) in
                table.identityNames.map { "\(alias).\(self.q($0)) = r.\(self.q($0))" }.joined(separator: " AND ")
            }
            let base = "SELECT 1 FROM \(q(table.baseName)) AS b WHERE \(sameAs("b"))"
            let server =
                "(CASE WHEN EXISTS (\(base)) THEN (SELECT b.\(q(column.name)) FROM \(q(table.baseName)) AS b WHERE \(sameAs("b"))) "
                + "ELSE (SELECT d.\(q(column.name)) FROM \(q(table.name)) AS d WHERE \(sameAs("d"))) END)"
            let payload = dialect.orderable("r.\(q(column.name))", type: column.type)
            let stored = dialect.orderable(server, type: column.type)
            let candidate =
                "r.\(q("_entity")) = \(type.index) AND \(sql.present(position, "r")) AND r.\(q(column.name)) IS NOT NULL "
                + "AND \(server) IS NOT NULL"
            let rows = q(stage.rowsName)
            stale[type.index] = try engine.count(
                "SELECT count(*) FROM \(rows) AS r WHERE \(candidate) AND \(payload) < \(stored)")
            let notNewer = "\(candidate) AND \(payload) <= \(stored)"
            let identity = table.identityNames.map { "r.\(q($0))" }.joined(separator: ", ")
            try unchanged.adopt(
                "SELECT r.\(q("_entity")), \(identity) FROM \(rows) AS r WHERE \(notNewer)", stage: stage, on: engine)
            try engine.execute("DELETE FROM \(rows) AS r WHERE \(notNewer)")
        }
        return stale
    }
}
