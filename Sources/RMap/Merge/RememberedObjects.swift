/// The objects of the payloads a run remembers (``RememberedPayloads``), in the store's own
/// tables `_rmap_remembered_<table>(origin, entity, <identity>)`: written from the run's staged
/// rows after its commit, and, when a later run skips a payload unchanged, copied into its
/// unchanged objects (``UnchangedObjects``) without leaving the engine.
struct RememberedObjects {
    let layout: StageLayout
    let dialect: any SQLDialect.Type

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// The table of a store table's remembered objects.
    static func name(_ table: TableLayout) -> String { "_rmap_remembered_\(table.name)" }

    private func columns(_ table: TableLayout) -> [ColumnLayout] {
        [ColumnLayout(name: "origin", type: .string), ColumnLayout(name: "entity", type: .string)]
            + table.identity.map { table.columns[$0] }
    }

    /// Creates the tables that do not exist.
    func ensure(on engine: any SQLEngine) throws {
        for stage in layout.tables where !stage.table.identity.isEmpty {
            guard try engine.columns(of: Self.name(stage.table)).isEmpty else { continue }
            let definitions = columns(stage.table).map { dialect.definition($0) }.joined(separator: ", ")
            try engine.execute("CREATE TABLE \(q(Self.name(stage.table))) (\(definitions))")
            try engine.execute(
                "CREATE INDEX \(q("index_\(Self.name(stage.table))_on_origin")) ON \(q(Self.name(stage.table))) (\(q("origin")))")
        }
    }

    /// Replaces the remembered objects of `origins` with the run's staged objects of those payloads,
    /// except a payload with an object of a pinned entity (``PayloadSkipRules``), which is not
    /// remembered. Call in a write transaction, after the run's commit.
    ///
    /// - Returns: the origins remembered.
    func remember(_ origins: [String], rules: PayloadSkipRules, on engine: any SQLEngine) throws -> [String] {
        try ensure(on: engine)
        let sources = try layout.tables.map { try objects(of: $0, on: engine) }
        // Without pinned entities every payload is remembered: no need to ask what each one held.
        let remembered = try rules.pinnedRoots.isEmpty
            ? origins : origins.filter { try rules.allows(entities(of: $0, in: sources, on: engine), in: layout.schema.model) }
        guard !remembered.isEmpty else { return [] }
        let numbers = Self.numbers(dialect)
        for stage in layout.tables where !stage.table.identity.isEmpty {
            let table = Self.name(stage.table)
            let names = layout.families[stage.position]
                .map { "WHEN \($0.index) THEN \(dialect.literal($0.name))" }.joined(separator: " ")
            let identity = stage.table.identityNames.map { "s.\(q($0))" }.joined(separator: ", ")
            let source = sources[stage.position]
            for origin in remembered {
                try engine.execute("DELETE FROM \(q(table)) WHERE \(q("origin")) = ?", [.string(origin)])
                try engine.execute(
                    "INSERT INTO \(q(table)) (\(dialect.list(columns(stage.table).map(\.name)))) "
                        + "SELECT \(source.distinct ? "DISTINCT " : "")?, CASE s.\(q("_entity")) \(names) END, \(identity) "
                        + "FROM \(q(source.table)) AS s WHERE s.\(q("_origin")) IN (\(numbers))",
                    [.string(origin), .string(origin)])
            }
        }
        return remembered
    }

    /// The numbers of the payload named by the statement's parameter.
    private static func numbers(_ dialect: any SQLDialect.Type) -> String {
        "SELECT o.\(dialect.quote("_origin")) FROM \(dialect.quote(StageSchema.originsName)) AS o WHERE o.\(dialect.quote("_name")) = ?"
    }

    /// The entities of the run's objects that came in payload `origin`.
    private func entities(
        of origin: String, in sources: [(table: String, distinct: Bool)], on engine: any SQLEngine
    ) throws -> Set<String> {
        let numbers = Self.numbers(dialect)
        var entities = Set<String>()
        for source in sources {
            try engine.query(
                "SELECT DISTINCT \(q("_entity")) FROM \(q(source.table)) WHERE \(q("_origin")) IN (\(numbers))",
                [.string(origin)], types: [.int]
            ) { row in
                if case .int(let index) = row[0], layout.schema.types.indices.contains(Int(index)) {
                    entities.insert(layout.schema.types[Int(index)].name)
                }
            }
        }
        return entities
    }

    /// Where the run's objects of a table and their payloads are read: the merged rows when each
    /// identity came once (one row each, its one payload: no `DISTINCT` over every occurrence),
    /// else the occurrences.
    private func objects(of stage: StageTable, on engine: any SQLEngine) throws -> (table: String, distinct: Bool) {
        let rows = try engine.count("SELECT count(*) FROM \(q(stage.rowsName))")
        let occurrences = try engine.count("SELECT count(*) FROM \(q(stage.stageName))")
        return rows == occurrences ? (stage.rowsName, false) : (stage.stageName, true)
    }

    /// The remembered objects of the skipped `origins`, as (table position, entity index, identity)
    /// rows a query yields: `SELECT entity index, identity... FROM ...` per table, for ``UnchangedObjects``.
    func skipped(_ origins: Set<String>, table stage: StageTable) -> (sql: String, parameters: [Value])? {
        guard !origins.isEmpty, !stage.table.identity.isEmpty else { return nil }
        let family = layout.families[stage.position]
        let indices = family.map { "WHEN \(dialect.literal($0.name)) THEN \($0.index)" }.joined(separator: " ")
        let placeholders = Array(repeating: "?", count: origins.count).joined(separator: ", ")
        let identity = stage.table.identityNames.map { "m.\(q($0))" }.joined(separator: ", ")
        return (
            "SELECT CASE m.\(q("entity")) \(indices) END, \(identity) FROM \(q(Self.name(stage.table))) AS m "
                + "WHERE m.\(q("origin")) IN (\(placeholders))",
            origins.sorted().map(Value.string)
        )
    }
}
