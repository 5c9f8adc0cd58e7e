/// The objects sources saw unchanged without delivering them (an HTTP `304`, a payload skipped
/// unchanged), in a temporary table per store table, `_rmap_unchanged_<n>` (their identities):
/// they count as unchanged, and are no orphans.
struct UnchangedObjects {
    let layout: StageLayout
    let dialect: any SQLDialect.Type
    /// By table position, the name of its table of unchanged identities.
    private(set) var tables: [Int: String] = [:]

    /// Stages `identities` (by entity name), and the remembered objects of the payloads skipped
    /// unchanged (``RememberedObjects``, by origin).
    init(
        _ identities: [String: [IdentityKey]], skipped: Set<String> = [], remembered: RememberedObjects? = nil,
        layout: StageLayout, on engine: any SQLEngine
    ) throws {
        self.layout = layout
        dialect = engine.dialect
        var byTable: [Int: [[Value]]] = [:]
        for (name, keys) in identities {
            guard let type = layout.schema.type(named: name) else { continue }
            byTable[layout.store.bindings[type.index].table, default: []] += keys.map {
                [.int(Int64(type.index))] + $0.values
            }
        }
        for stage in layout.tables {
            let rows = byTable[stage.position] ?? []
            let query = remembered?.skipped(skipped, table: stage)
            guard !rows.isEmpty || query != nil else { continue }
            let name = try table(of: stage, on: engine)
            let columns = Self.columns(stage)
            try engine.insert(into: name, columns: columns, rows: rows.filter { $0.count == columns.count })
            if let query {
                try engine.execute(
                    "INSERT INTO \(dialect.quote(name)) (\(dialect.list(columns.map(\.name)))) \(query.sql)",
                    query.parameters)
            }
        }
    }

    /// The columns of a table of unchanged identities: the entity's index, then the identity.
    private static func columns(_ stage: StageTable) -> [ColumnLayout] {
        [ColumnLayout(name: "_entity", type: .int)] + stage.table.identity.map { stage.table.columns[$0] }
    }

    /// The table of `stage`'s unchanged identities, made empty the first time.
    private mutating func table(of stage: StageTable, on engine: any SQLEngine) throws -> String {
        if let name = tables[stage.position] { return name }
        let name = "_rmap_unchanged_\(stage.position)"
        try engine.execute("DROP TABLE IF EXISTS \(dialect.quote(name))")
        try engine.execute(StageSchema.table(name, Self.columns(stage), dialect))
        tables[stage.position] = name
        return name
    }

    /// Adds the identities `select` gives (the entity's index, then the identity) to `stage`'s table.
    mutating func adopt(_ select: String, stage: StageTable, on engine: any SQLEngine) throws {
        let name = try table(of: stage, on: engine)
        try engine.execute(
            "INSERT INTO \(dialect.quote(name)) (\(dialect.list(Self.columns(stage).map(\.name)))) \(select)")
    }

    /// Counts, by the stored row's entity, the unchanged objects the run does not hold.
    func count(into counts: inout [EntityWriteCounts], on engine: any SQLEngine) throws {
        for (position, name) in tables {
            let stage = layout.tables[position]
            let sql = StagedSQL(stage: stage, dialect: dialect)
            // Each identity once, counted for the entity its source named.
            let identity = stage.table.identityNames.map { "u.\(sql.q($0))" }.joined(separator: ", ")
            let distinct =
                "SELECT min(u.\(sql.q("_entity"))) AS e, \(identity) FROM \(sql.q(name)) AS u "
                + "WHERE NOT EXISTS (SELECT 1 FROM \(sql.q(stage.rowsName)) AS r WHERE \(sql.sameIdentity("r", "u"))) "
                + "GROUP BY \(identity)"
            try engine.query("SELECT e, count(*) FROM (\(distinct)) AS c GROUP BY e", [], types: [.int, .int]) { row in
                if case .int(let index) = row[0], case .int(let count) = row[1], counts.indices.contains(Int(index)) {
                    counts[Int(index)].unchanged += Int(count)
                }
            }
        }
    }

    /// Drops the tables.
    func drop(on engine: any SQLEngine) {
        for name in tables.values { _ = try? engine.execute("DROP TABLE IF EXISTS \(dialect.quote(name))") }
    }
}
