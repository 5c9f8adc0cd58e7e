/// The objects of the payloads a run remembers (``RememberedPayloads``), in the store's own
/// tables `_rmap_remembered_<table>(payload, entity, <identity>)`, keyed by payload number
/// (``PayloadNumbers``) and identity: written from the run's staged rows after its commit, and,
/// when a later run skips a payload unchanged, copied into its unchanged objects
/// (``UnchangedObjects``) without leaving the engine.
struct RememberedObjects {
    let layout: StageLayout
    let dialect: any SQLDialect.Type

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// The table of a store table's remembered objects.
    static func name(_ table: TableLayout) -> String { "_rmap_remembered_\(table.name)" }

    private func columns(_ table: TableLayout) -> [ColumnLayout] {
        [ColumnLayout(name: "payload", type: .int), ColumnLayout(name: "entity", type: .string)]
            + table.identity.map { table.columns[$0] }
    }

    /// Creates the tables that do not exist, and makes again those of an earlier form (payloads
    /// named by their origins' text): their objects are dropped, and ``RememberedPayloads`` no
    /// longer trusts the entries that name them, so the next run maps those payloads again.
    ///
    /// - Parameter keyingLater: whether the tables made go without their primary key, which the
    ///   caller adds once they are filled (``primaryKey(of:)``), in the same transaction.
    /// - Returns: the tables made.
    @discardableResult
    func ensure(on engine: any SQLEngine, keyingLater: Bool = false) throws -> [TableLayout] {
        try PayloadNumbers(dialect: dialect).ensure(on: engine)
        var made: [TableLayout] = []
        for stage in layout.tables where !stage.table.identity.isEmpty {
            let name = Self.name(stage.table)
            let existing = try engine.columns(of: name)
            if existing.contains("payload") { continue }
            if !existing.isEmpty { try engine.execute("DROP TABLE \(q(name))") }
            let definitions = columns(stage.table).map { dialect.definition($0) }
            let key = keyingLater ? [] : ["PRIMARY KEY (\(keyList(stage.table)))"]
            try engine.execute(
                "CREATE TABLE \(q(name)) (\((definitions + key).joined(separator: ", ")))"
                    + (keyingLater ? "" : dialect.keyedTableOptions))
            made.append(stage.table)
        }
        return made
    }

    private func keyList(_ table: TableLayout) -> String { dialect.list(["payload"] + table.identityNames) }

    /// The statement that adds the primary key of a table made by `ensure(on:keyingLater:)`.
    private func primaryKey(of table: TableLayout) -> String {
        "ALTER TABLE \(q(Self.name(table))) ADD PRIMARY KEY (\(keyList(table)))"
    }

    /// Replaces the remembered objects of `origins` with the run's staged objects of those payloads,
    /// except a payload with an object of a pinned entity (``PayloadSkipRules``), which is not
    /// remembered. Call in a write transaction, after the run's commit. Each table is read once,
    /// for every payload together (one pass per payload read a million-row table three times).
    ///
    /// - Parameter occurrencesAreRows: the positions of the tables whose occurrences are known to
    ///   be their merged rows, one each (``AscendingIdentities``): read without counting them.
    /// - Returns: the origins remembered.
    ///
    /// Where the engine keeps keyed tables in key order as cheaply as others
    /// (``SQLDialect/keysStagingInOrder``, SQLite), a table made now has its key from the start;
    /// elsewhere (PostgreSQL) it gets it once filled: one sorted build instead of a B-tree kept up
    /// row by row (a million tasks: 1.14 s to remember, 0.87 s of it the inserts).
    func remember(
        _ origins: [String], rules: PayloadSkipRules, occurrencesAreRows: Set<Int> = [], on engine: any SQLEngine
    ) throws -> [String] {
        let keyingLater = !dialect.keysStagingInOrder
        let made = try ensure(on: engine, keyingLater: keyingLater)
        let remembered = try fill(origins, rules: rules, occurrencesAreRows: occurrencesAreRows, on: engine)
        if keyingLater {
            for table in made { try engine.execute(primaryKey(of: table)) }
        }
        return remembered
    }

    /// ``remember(_:rules:occurrencesAreRows:on:)``'s writes, into tables that exist.
    private func fill(
        _ origins: [String], rules: PayloadSkipRules, occurrencesAreRows: Set<Int>, on engine: any SQLEngine
    ) throws -> [String] {
        // Rows merged while staging keep only their last payload: when an object came in several,
        // which ones is not known, and no payload is remembered (the next run maps them all).
        guard try !mixesPayloads(on: engine) else { return [] }
        let sources = try layout.tables.map { stage -> (table: String, distinct: Bool) in
            if occurrencesAreRows.contains(stage.position) { return (stage.rowsName, false) }
            return try objects(of: stage, on: engine)
        }
        let pinned = try pinnedPayloads(in: sources, rules: rules, on: engine)
        let remembered = origins.filter { !pinned.contains($0) }
        guard !remembered.isEmpty else { return [] }
        let numbers = PayloadNumbers(dialect: dialect)
        defer { numbers.drop(on: engine) }
        try numbers.number(remembered, on: engine)
        for stage in layout.tables where !stage.table.identity.isEmpty {
            let table = Self.name(stage.table)
            let entities = layout.families[stage.position]
                .map { "WHEN \($0.index) THEN \(dialect.literal($0.name))" }.joined(separator: " ")
            let identity = stage.table.identityNames.map { "s.\(q($0))" }
            let source = sources[stage.position]
            try engine.execute("DELETE FROM \(q(table)) WHERE \(q("payload")) IN (\(numbers.remembered))")
            // An object without its whole identity cannot be found again: not remembered. Merged
            // rows hold each object once; occurrences may hold one under two entities of its family,
            // and the first is kept (PostgreSQL's `ON CONFLICT` costs twice the insert: merged rows
            // go without it).
            try engine.execute(
                "INSERT INTO \(q(table)) (\(dialect.list(columns(stage.table).map(\.name)))) "
                    + "SELECT \(source.distinct ? "DISTINCT " : "")m.\(q("_payload")), CASE s.\(q("_entity")) \(entities) END, "
                    + "\(identity.joined(separator: ", ")) FROM \(q(source.table)) AS s "
                    + "JOIN \(q(PayloadNumbers.rememberingName)) AS m ON m.\(q("_origin")) = s.\(q("_origin")) "
                    + "WHERE \(identity.map { "\($0) IS NOT NULL" }.joined(separator: " AND "))"
                    + (source.distinct ? " ON CONFLICT DO NOTHING" : ""))
        }
        return remembered
    }

    /// The names of the payloads that held an object of an entity that ``PayloadSkipRules`` pins
    /// (such a payload is not remembered): only the tables of those entities are read.
    private func pinnedPayloads(
        in sources: [(table: String, distinct: Bool)], rules: PayloadSkipRules, on engine: any SQLEngine
    ) throws -> Set<String> {
        var names: Set<String> = []
        for stage in layout.tables {
            let pinned = layout.families[stage.position].filter { !rules.allows([$0.name], in: layout.schema.model) }
            guard !pinned.isEmpty else { continue }
            try engine.query(
                "SELECT DISTINCT o.\(q("_name")) FROM \(q(sources[stage.position].table)) AS s "
                    + "JOIN \(q(StageSchema.originsName)) AS o ON o.\(q("_origin")) = s.\(q("_origin")) "
                    + "WHERE s.\(q("_entity")) IN (\(pinned.map { String($0.index) }.joined(separator: ", ")))",
                [], types: [.string]
            ) { row in
                if case .string(let name) = row[0] { names.insert(name) }
            }
        }
        return names
    }

    /// Where the run's objects of a table and their payloads are read: the merged rows when each
    /// identity came once (one row each, its one payload: no `DISTINCT` over every occurrence),
    /// else the occurrences.
    private func objects(of stage: StageTable, on engine: any SQLEngine) throws -> (table: String, distinct: Bool) {
        if layout.mergesWhileStaging(stage, dialect: dialect) { return (stage.rowsName, false) }
        let rows = try engine.count("SELECT count(*) FROM \(q(stage.rowsName))")
        let occurrences = try engine.count("SELECT count(*) FROM \(q(stage.stageName))")
        return rows == occurrences ? (stage.rowsName, false) : (stage.stageName, true)
    }

    /// Whether an object merged while staging came in more than one payload.
    private func mixesPayloads(on engine: any SQLEngine) throws -> Bool {
        try layout.tables.contains { stage in
            try layout.mergesWhileStaging(stage, dialect: dialect)
                && engine.exists("SELECT 1 FROM \(q(stage.rowsName)) WHERE \(q("_mixed")) = 1")
        }
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
                + "JOIN \(q(PayloadNumbers.name)) AS n ON n.\(q("payload")) = m.\(q("payload")) "
                + "WHERE n.\(q("origin")) IN (\(placeholders))",
            origins.sorted().map(Value.string)
        )
    }
}
