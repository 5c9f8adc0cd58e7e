/// Merges one table's objects of the run (`_rmap_rows_<n>`, ``RowCollapse``) into the store's
/// table, set by set, as docs/mapping.md ("What a run writes") says:
///
/// - an object the store does not hold is inserted, its defaults filled for the keys no payload
///   carried (new to the store, not to the run);
/// - an object whose row has no base (the row is the server's state) takes the payload's values
///   where the payload had a key;
/// - an object changed locally (its row has a base) is merged three ways per column against the
///   base: a remote change applies, a local edit stays, both is a conflict settled by the
///   entity's `on_conflict`; the base takes the payload's values, and is dropped when the row is
///   its server state again;
/// - an object deleted locally (a base without a row) whose server values changed is a conflict
///   on each changed column; `on_conflict: remote` brings it back.
///
/// Counts come from SQL, before anything changes. Tombstones (``tombstone``) are left to
/// ``TableDeletion``; which entity each row is, to ``RowEntities``.
struct TableMerge {
    let sql: StagedSQL
    let family: [EntityType]
    let layout: StageLayout
    /// The entities of the merged and stored rows.
    let entities: RowEntities
    /// Rows of ``StagedSQL/stage`` that are tombstones, as a condition on alias `r`.
    let tombstone: PredicateSQL
    /// Whether the store's table holds rows, and bases, before the merge: a table that holds
    /// neither takes every object as new, and one without bases has nothing to merge three ways.
    var holdsRows = true
    var holdsBases = true

    init(stage: StageTable, layout: StageLayout, dialect: any SQLDialect.Type) {
        sql = StagedSQL(stage: stage, dialect: dialect)
        self.layout = layout
        family = layout.families[stage.position]
        entities = RowEntities(sql: sql, family: family, layout: layout)
        tombstone = TableDeletion.tombstones(family: family, layout: layout, stage: stage, dialect: dialect)
    }

    /// Reads whether the store's table holds rows and bases.
    mutating func look(on engine: any SQLEngine) throws {
        holdsRows = try engine.exists("SELECT 1 FROM \(target)")
        holdsBases = try engine.exists("SELECT 1 FROM \(base)")
    }

    var table: TableLayout { sql.table }
    var rows: String { "\(sql.q(sql.stage.rowsName)) AS r" }
    var target: String { sql.q(table.name) }
    var base: String { sql.q(table.baseName) }

    // MARK: - Values

    /// The value a new row takes for column `position`: the payload's, else the entity's default.
    func newValue(_ position: Int) -> (sql: String, parameters: [Value]) {
        if position == table.discriminator { return (entities.typeValueOfRow, []) }
        var defaults: [(Int, Value)] = []
        for type in family {
            let binding = layout.store.bindings[type.index]
            for (attribute, column) in binding.attributeColumns.enumerated() where column == position {
                if let value = type.mapping.attributes[attribute].defaultValue { defaults.append((type.index, value)) }
            }
        }
        let value = sql.column("r", at: position)
        guard !defaults.isEmpty else { return (value, []) }
        let cases = defaults.map { "WHEN r.\(sql.q("_entity")) = \($0.0) THEN ?" }.joined(separator: " ")
        return ("CASE WHEN \(sql.present(position, "r")) THEN \(value) \(cases) ELSE NULL END", defaults.map(\.1))
    }

    /// True when the payload changes column `position` of the stored row `t`.
    private func changes(_ position: Int, of alias: String) -> String {
        if position == table.discriminator {
            return "\(entities.typeValueOfRow) IS DISTINCT FROM \(sql.column(alias, at: position))"
        }
        return "(\(sql.present(position, "r")) AND NOT (\(sql.same(position, "r", alias))))"
    }

    /// True when the payload changes any value of the stored row `alias`.
    func changesAny(_ alias: String) -> String {
        let columns = sql.valueColumns.map { changes($0, of: alias) }
        return columns.isEmpty ? "1 = 0" : "(" + columns.joined(separator: " OR ") + ")"
    }

    var notTombstone: String { "NOT (\(tombstone.sql))" }

    // MARK: - Counting

    /// How many of the merged rows ``count(on:into:)`` found new to the store, and how many change
    /// a stored row: a write with nothing to write is not asked about again (a second run of the
    /// nested benchmark asked twice more over its million tasks, 0.6 s).
    struct Written {
        var new = 0
        var updated = 0
    }

    /// The counts by entity: inserted, updated and unchanged, worked out before anything changes.
    ///
    /// - Returns: the table's objects that are new and those that change a stored row.
    func count(on engine: any SQLEngine, into counts: inout [EntityWriteCounts]) throws -> Written {
        guard holdsRows || holdsBases else {
            // Nothing stored: every object is new; one entity without tombstones needs no grouping.
            if family.count == 1, family[0].mapping.deletion.tombstone == nil {
                let new = try engine.count("SELECT count(*) FROM \(rows)")
                counts[family[0].index].inserted += new
                return Written(new: new)
            }
            var new = 0
            try engine.query(
                "SELECT r.\(sql.q("_entity")), count(*) FROM \(rows) WHERE \(notTombstone) GROUP BY 1",
                tombstone.parameters,
                types: [.int, .int]
            ) { row in
                guard case .int(let entity) = row[0], case .int(let count) = row[1],
                    counts.indices.contains(Int(entity))
                else { return }
                counts[Int(entity)].inserted += Int(count)
                new += Int(count)
            }
            return Written(new: new)
        }
        let hasRow = "t.\(sql.q(table.identityNames[0])) IS NOT NULL"
        let hasBase = "b.\(sql.q(table.identityNames[0])) IS NOT NULL"
        let threeWay = sql.valueColumns.map { position -> String in
            return
                "(\(sql.present(position, "r")) AND NOT (\(sql.same(position, "r", "b"))) AND NOT (\(sql.same(position, "r", "t"))) "
                + "AND (\(sql.same(position, "t", "b")) OR \(policyIsRemote)))"
        }
        let rowChanges = threeWay.isEmpty ? "1 = 0" : threeWay.joined(separator: " OR ")
        let comeBack = sql.valueColumns.map { "(\(sql.present($0, "r")) AND NOT (\(sql.same($0, "r", "b"))))" }
        let revived = "(\(policyIsRemote) AND (\(comeBack.isEmpty ? "1 = 0" : comeBack.joined(separator: " OR "))))"
        let category =
            "CASE WHEN NOT (\(hasRow)) AND NOT (\(hasBase)) THEN 0 "
            + "WHEN \(hasRow) AND NOT (\(hasBase)) THEN CASE WHEN \(changesAny("t")) THEN 1 ELSE 2 END "
            + "WHEN \(hasRow) THEN CASE WHEN \(rowChanges) THEN 1 ELSE 2 END "
            + "ELSE CASE WHEN \(revived) THEN 1 ELSE 2 END END"
        let query =
            "SELECT r.\(sql.q("_entity")), \(category), count(*) FROM \(rows) "
            + "LEFT JOIN \(target) AS t ON \(sql.sameIdentity("t", "r")) LEFT JOIN \(base) AS b ON \(sql.sameIdentity("b", "r")) "
            + "WHERE \(notTombstone) GROUP BY 1, 2"
        var written = Written()
        try engine.query(query, tombstone.parameters, types: [.int, .int, .int]) { row in
            guard case .int(let entity) = row[0], case .int(let category) = row[1], case .int(let count) = row[2],
                counts.indices.contains(Int(entity))
            else { return }
            switch category {
            case 0:
                counts[Int(entity)].inserted += Int(count)
                written.new += Int(count)
            case 1:
                counts[Int(entity)].updated += Int(count)
                written.updated += Int(count)
            default: counts[Int(entity)].unchanged += Int(count)
            }
        }
        return written
    }

    /// True (for row `r`) when its entity's `on_conflict` is `remote`.
    var policyIsRemote: String { policy(.remote) }

    func policy(_ wanted: ConflictPolicy) -> String {
        let entities = family.filter { $0.mapping.onConflict == wanted }.map { String($0.index) }
        if entities.isEmpty { return "1 = 0" }
        if entities.count == family.count { return "1 = 1" }
        return "r.\(sql.q("_entity")) IN (\(entities.joined(separator: ", ")))"
    }
}
