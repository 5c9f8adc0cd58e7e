/// The objects sources saw unchanged without delivering them (an HTTP `304`, a payload skipped
/// unchanged), in a temporary table per store table, `_rmap_unchanged_<n>` (their identities):
/// they count as unchanged, and are no orphans.
struct UnchangedObjects {
    let layout: StageLayout
    let dialect: any SQLDialect.Type
    /// By table position, the name of its table of unchanged identities.
    private(set) var tables: [Int: String] = [:]

    /// Stages `identities` (by entity name).
    init(_ identities: [String: [IdentityKey]], layout: StageLayout, on engine: any SQLEngine) throws {
        self.layout = layout
        dialect = engine.dialect
        var byTable: [Int: [[Value]]] = [:]
        for (name, keys) in identities {
            guard let type = layout.schema.type(named: name) else { continue }
            byTable[layout.store.bindings[type.index].table, default: []] += keys.map(\.values)
        }
        for (position, rows) in byTable.sorted(by: { $0.key < $1.key }) {
            let table = layout.tables[position].table
            let name = "_rmap_unchanged_\(position)"
            let columns = table.identity.map { table.columns[$0] }
            try engine.execute("DROP TABLE IF EXISTS \(dialect.quote(name))")
            try engine.execute(StageSchema.table(name, columns, dialect))
            try engine.insert(into: name, columns: columns, rows: rows.filter { $0.count == columns.count })
            tables[position] = name
        }
    }

    /// Counts, by the stored row's entity, the unchanged objects the run does not hold.
    func count(into counts: inout [EntityWriteCounts], on engine: any SQLEngine) throws {
        for (position, name) in tables {
            let stage = layout.tables[position]
            let sql = StagedSQL(stage: stage, dialect: dialect)
            let family = layout.schema.types.filter { layout.store.bindings[$0.index].table == position }
            let entity: String
            if let discriminator = stage.table.discriminator {
                let cases = family.map {
                    "WHEN \(dialect.literal(layout.store.bindings[$0.index].typeValue)) THEN \($0.index)"
                }.joined(separator: " ")
                entity = "(SELECT CASE \(sql.column("t", at: discriminator)) \(cases) END FROM \(sql.q(stage.table.name)) AS t "
                    + "WHERE \(sql.sameIdentity("t", "u")))"
            } else {
                entity = String(family[0].index)
            }
            let distinct = "SELECT DISTINCT \(stage.table.identityNames.map { "u.\(sql.q($0))" }.joined(separator: ", ")) "
                + "FROM \(sql.q(name)) AS u WHERE NOT EXISTS (SELECT 1 FROM \(sql.q(stage.rowsName)) AS r WHERE \(sql.sameIdentity("r", "u")))"
            try engine.query(
                "SELECT \(entity), count(*) FROM (\(distinct)) AS u GROUP BY 1", [], types: [.int, .int]
            ) { row in
                let index = if case .int(let value) = row[0] { Int(value) } else { family[0].index }
                if case .int(let count) = row[1], counts.indices.contains(index) { counts[index].unchanged += Int(count) }
            }
        }
    }

    /// Drops the tables.
    func drop(on engine: any SQLEngine) {
        for name in tables.values { _ = try? engine.execute("DROP TABLE IF EXISTS \(dialect.quote(name))") }
    }
}
