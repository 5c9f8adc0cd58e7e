/// The entities of one table's merged rows (`_rmap_rows_<n>`, alias `r`, ``RowCollapse``) and
/// stored rows, told by the table's `type` column: an object whose records did not say its entity
/// keeps its stored sub-entity, a row writes only its entity's columns, and a written row takes
/// its entity's `type` value.
struct RowEntities {
    let sql: StagedSQL
    let family: [EntityType]
    let layout: StageLayout

    private var table: TableLayout { sql.table }

    /// The entity of a stored row (or base) of alias `alias`, by its `type` column; the root's in a
    /// table without one.
    ///
    /// - Parameter unknownAsRoot: whether a `type` value no entity of the family has reads as the
    ///   root (`ELSE`), rather than as `NULL`.
    func storedEntity(_ alias: String, unknownAsRoot: Bool) -> String {
        guard let discriminator = table.discriminator else { return String(family[0].index) }
        let cases = family.map { "WHEN \(sql.dialect.literal(typeValue($0))) THEN \($0.index)" }.joined(separator: " ")
        let unknown = unknownAsRoot ? " ELSE \(family[0].index)" : ""
        return "CASE \(sql.column(alias, at: discriminator)) \(cases)\(unknown) END"
    }

    /// The `type` value of an entity.
    private func typeValue(_ type: EntityType) -> String { layout.store.bindings[type.index].typeValue }

    /// Settles the entity of objects whose records did not say it: a stored object keeps its
    /// sub-entity when that is a kind of the one declared.
    func resolveEntities(on engine: any SQLEngine) throws {
        guard table.discriminator != nil else { return }
        let stored = storedEntity("t", unknownAsRoot: false)
        let collapse = RowCollapse(stage: sql.stage, layout: layout, dialect: sql.dialect)
        let pairs = collapse.kindPairs
        guard !pairs.isEmpty else { return }
        let kinds = pairs.map { "(\(stored) = \($0.0) AND r.\(sql.q("_entity")) = \($0.1))" }.joined(separator: " OR ")
        let rowsName = sql.q(sql.stage.rowsName)
        let target = sql.q(table.name)
        try engine.execute(
            "UPDATE \(rowsName) AS r SET \(sql.q("_entity")) = (SELECT \(stored) FROM \(target) AS t WHERE \(sql.sameIdentity("t", "r"))) "
                + "WHERE r.\(sql.q("_typed")) = 0 AND EXISTS (SELECT 1 FROM \(target) AS t WHERE \(sql.sameIdentity("t", "r")) AND (\(kinds)))"
        )
    }

    /// Clears, in each merged row, the values of columns its settled entity does not have: an
    /// untyped record carries its sub-entities' attributes (``PendingRecord/subEntityValues``) in
    /// case its object is one; an object that is not writes none of them.
    func dropColumnsOfOtherEntities(on engine: any SQLEngine) throws {
        guard family.count > 1 else { return }
        let carried = Set(family.flatMap { layout.store.bindings[$0.index].attributeColumns })
        for type in family {
            let foreign = carried.subtracting(layout.store.bindings[type.index].attributeColumns)
            guard !foreign.isEmpty else { continue }
            let cleared = StageTable.masks(of: foreign)
            let names =
                foreign.sorted().map { table.columns[$0].name }
                + sql.stage.connectionKeys.filter { foreign.contains($0.column) }.map(\.name)
            let sets =
                cleared.map { mask, bits in "\(sql.q("_m\(mask)")) = \(sql.q("_m\(mask)")) & \(~bits)" }
                + names.map { "\(sql.q($0)) = NULL" }
            // Only the rows that carry such a column are written.
            let carrying = cleared.map { mask, bits in "(\(sql.q("_m\(mask)")) & \(bits)) <> 0" }
            try engine.execute(
                "UPDATE \(sql.q(sql.stage.rowsName)) SET \(sets.joined(separator: ", ")) WHERE \(sql.q("_entity")) = \(type.index) "
                    + "AND (\(carrying.joined(separator: " OR ")))")
        }
    }

    /// The `type` value of the row's entity (alias `r`).
    var typeValueOfRow: String {
        let cases = family.map { "WHEN \($0.index) THEN \(sql.dialect.literal(typeValue($0)))" }.joined(separator: " ")
        return "CASE r.\(sql.q("_entity")) \(cases) END"
    }
}
