/// What a run deletes from one table: the stored objects that tombstones name (`delete_when`),
/// and, after a complete fetch, the orphans (`orphans: delete`), with the links they are the
/// source of; counted by the stored row's entity.
struct TableDeletion {
    let sql: StagedSQL
    let family: [EntityType]
    let layout: StageLayout
    /// Which entity each stored row is.
    private let entities: RowEntities

    init(stage: StageTable, layout: StageLayout, dialect: any SQLDialect.Type) {
        sql = StagedSQL(stage: stage, dialect: dialect)
        self.layout = layout
        family = layout.families[stage.position]
        entities = RowEntities(sql: sql, family: family, layout: layout)
    }

    private var table: TableLayout { sql.table }

    /// The condition (on merged row `r`) of the family's tombstones: the row's entity has a
    /// `delete_when` that its values meet.
    static func tombstones(
        family: [EntityType], layout: StageLayout, stage: StageTable, dialect: any SQLDialect.Type
    ) -> PredicateSQL {
        var parts: [String] = []
        var parameters: [Value] = []
        for type in family {
            guard let predicate = type.mapping.deletion.tombstone else { continue }
            let condition = PredicateSQL.condition(
                predicate, of: type, alias: "r", binding: layout.store.bindings[type.index], table: stage.table,
                dialect: dialect)
            parts.append("(r.\(dialect.quote("_entity")) = \(type.index) AND \(condition.sql))")
            parameters += condition.parameters
        }
        return PredicateSQL(
            sql: parts.isEmpty ? "1 = 0" : "(" + parts.joined(separator: " OR ") + ")", parameters: parameters)
    }

    /// The entity of a stored row or base of alias `alias`: a `type` value the family does not
    /// know is the root's.
    private func storedEntity(_ alias: String) -> String { entities.storedEntity(alias, unknownAsRoot: true) }

    /// Deletes the stored objects the run's tombstones name, counted as deleted.
    func deleteTombstones(on engine: any SQLEngine, counts: inout [EntityWriteCounts]) throws {
        let tombstone = Self.tombstones(family: family, layout: layout, stage: sql.stage, dialect: sql.dialect)
        guard tombstone.sql != "1 = 0" else { return }
        let named =
            "SELECT 1 FROM \(sql.q(sql.stage.rowsName)) AS r WHERE \(tombstone.sql) AND \(sql.sameIdentity("r", "d"))"
        try delete(where: "EXISTS (\(named))", tombstone.parameters, on: engine, counting: \.deleted, into: &counts)
    }

    /// Deletes, for a complete fetch of `entity` with `orphans: delete`, the stored objects of its
    /// family that the run does not hold nor saw unchanged (``UnchangedObjects``), counted as orphans.
    func deleteOrphans(
        of entity: EntityType, unchanged: String?, on engine: any SQLEngine, counts: inout [EntityWriteCounts]
    )
        throws
    {
        var condition =
            "NOT EXISTS (SELECT 1 FROM \(sql.q(sql.stage.rowsName)) AS r WHERE \(sql.sameIdentity("r", "d")))"
        if let unchanged {
            condition += " AND NOT EXISTS (SELECT 1 FROM \(sql.q(unchanged)) AS u WHERE \(sql.sameIdentity("u", "d")))"
        }
        try deleteOrphans(of: entity, where: condition, on: engine, counts: &counts)
    }

    /// Deletes the stored objects of `entity`'s family (with an identity) that `condition` (on
    /// alias `d`) selects, counted as orphans.
    func deleteOrphans(
        of entity: EntityType, where condition: String, on engine: any SQLEngine, counts: inout [EntityWriteCounts]
    )
        throws
    {
        let members = layout.schema.family(of: entity).map { String($0.index) }.joined(separator: ", ")
        let identified = table.identityNames.map { "d.\(sql.q($0)) IS NOT NULL" }.joined(separator: " AND ")
        try delete(
            where: "\(identified) AND \(storedEntity("d")) IN (\(members)) AND \(condition)", [], on: engine,
            counting: \.orphansDeleted, into: &counts)
    }

    /// Deletes the rows (of `alias` `d`: the table or its base) that `condition` selects, their
    /// bases, notes of local creation and links, each object counted once in `counter`.
    func delete(
        where condition: String, _ parameters: [Value], on engine: any SQLEngine,
        counting counter: WritableKeyPath<EntityWriteCounts, Int>, into counts: inout [EntityWriteCounts]
    ) throws {
        let target = sql.q(table.name)
        let base = sql.q(table.baseName)
        let inBase =
            "SELECT \(storedEntity("d")) FROM \(base) AS d WHERE \(condition) "
            + "AND NOT EXISTS (SELECT 1 FROM \(target) AS x WHERE \(sql.sameIdentity("x", "d")))"
        var total = 0
        try engine.query(
            "SELECT e, count(*) FROM (SELECT \(storedEntity("d")) AS e FROM \(target) AS d WHERE \(condition) UNION ALL \(inBase)) AS c GROUP BY e",
            parameters + parameters, types: [.int, .int]
        ) { row in
            guard case .int(let entity) = row[0], case .int(let count) = row[1], counts.indices.contains(Int(entity))
            else { return }
            counts[Int(entity)][keyPath: counter] += Int(count)
            total += Int(count)
        }
        // Nothing to delete: nothing is written (a run that changes nothing leaves the file as it was).
        guard total > 0 else { return }
        for join in layout.store.joinTables(of: table) {
            let sources = join.columns.prefix(join.sourceColumnCount).map(\.name)
            let link = zip(table.identityNames, sources).map { "d.\(sql.q($0)) = j.\(sql.q($1))" }.joined(
                separator: " AND ")
            for stored in [target, base] {
                try engine.execute(
                    "DELETE FROM \(sql.q(join.name)) AS j WHERE EXISTS (SELECT 1 FROM \(stored) AS d WHERE \(link) AND \(condition))",
                    parameters)
            }
        }
        let marks = sql.q(table.insertedName)
        try engine.execute(
            "DELETE FROM \(marks) AS m WHERE EXISTS (SELECT 1 FROM \(target) AS d WHERE \(sql.sameIdentity("m", "d")) AND \(condition))",
            parameters)
        try engine.execute("DELETE FROM \(base) AS d WHERE \(condition)", parameters)
        try engine.execute("DELETE FROM \(target) AS d WHERE \(condition)", parameters)
    }
}
