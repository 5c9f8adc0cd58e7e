/// Merges the occurrences of each identity (``StageTable``'s `_rmap_stage_<n>`) into one row per
/// object (`_rmap_rows_<n>`), in arrival order: a column takes the value of the last occurrence
/// that carried it (a missing key never overwrites, `null` does), the mask is the union of the
/// occurrences', the place (`_seq`, `_origin`, `_record`, `_path`) is the last occurrence's, and
/// the entity is the last one a record said (`_typed`), else the most derived one declared.
///
/// SQLite applies an `INSERT ... SELECT ... ORDER BY _seq ON CONFLICT DO UPDATE` row by row, in
/// order; PostgreSQL refuses to update a row twice in one statement, so there the last
/// occurrence of each identity goes in first, then the values of earlier ones fill the columns
/// it lacked (``SQLDialect/upsertsInOrder``).
///
/// When nothing reads the occurrences (``StageLayout/mergesWhileStaging(_:dialect:)``), SQLite
/// merges each batch into the rows as it is staged (``stagingUpsert``), and the occurrence table
/// stays empty: every row is written once less. The rows then also keep the sequence of their
/// identity's first occurrence (`_first`) and whether its occurrences came in more than one
/// payload (`_mixed`), which is what the run asks the occurrences otherwise.
struct RowCollapse {
    let sql: StagedSQL
    let schema: GraphSchema
    let family: [EntityType]
    /// Whether the rows are merged as the occurrences are staged.
    let whileStaging: Bool

    init(stage: StageTable, layout: StageLayout, dialect: any SQLDialect.Type) {
        sql = StagedSQL(stage: stage, dialect: dialect)
        schema = layout.schema
        family = layout.families[stage.position]
        whileStaging = layout.mergesWhileStaging(stage, dialect: dialect)
    }

    private var stage: StageTable { sql.stage }

    /// The merged rows' columns: the keys first (the key), then the place, masks, the table's
    /// columns, the connection keys, and the last occurrence of each tracked slot.
    var rowColumns: [ColumnLayout] {
        stage.keyColumns + StageTable.occurrenceColumns + stage.maskColumns + stage.table.columns
            + stage.connectionKeys.map(\.layout) + stage.trackedSlots.map { ColumnLayout(name: "_at\($0)", type: .int) }
            + (whileStaging
                ? [ColumnLayout(name: "_first", type: .int), ColumnLayout(name: "_mixed", type: .int)] : [])
    }

    /// Creates the merged rows' table before staging, when they are merged while staging.
    func prepare(on engine: any SQLEngine) throws {
        guard whileStaging else { return }
        try engine.execute(createRows())
        // Few rows, if any, came in two payloads: asking whether any did reads this index, not the table.
        try engine.execute(
            "CREATE INDEX \(sql.q("\(stage.rowsName)_mixed")) ON \(sql.q(stage.rowsName)) (\(sql.q("_mixed"))) "
                + "WHERE \(sql.q("_mixed")) = 1")
    }

    /// Whether the merged rows are kept in the order of a whole-number identity (SQLite's rowid),
    /// so that identities staged out of order are better merged at once (``StagingKeyOrder``).
    var keepsIdentityOrder: Bool {
        whileStaging && stage.keyColumns.count == 1 && stage.keyColumns[0].type == .int
    }

    /// Creates the merged rows' table and fills it; rows merged while staging are filled already,
    /// but for the occurrences staged out of order (``mergeOutOfOrder(on:)``).
    ///
    /// - Parameter occurrencesAreRows: whether no identity came twice (``AscendingIdentities``):
    ///   then each occurrence is its object's row, whole, and is copied as it is.
    func run(on engine: any SQLEngine, occurrencesAreRows: Bool = false) throws {
        guard !whileStaging else { return try mergeOutOfOrder(on: engine) }
        try engine.execute(createRows())
        if occurrencesAreRows {
            try engine.execute(insertPrefix)
            if !sql.dialect.upsertsInOrder { try engine.execute(rowsKey()) }
        } else if sql.dialect.upsertsInOrder {
            try engine.execute(orderedUpsert())
        } else {
            try engine.execute(lastOccurrences())
            try engine.execute(rowsKey())
            // When no identity came twice, each row is its one occurrence, whole.
            let count = { (table: String) in try engine.count("SELECT count(*) FROM \(sql.q(table))") }
            guard try count(stage.stageName) > count(stage.rowsName) else { return }
            try engine.execute(occurrenceIndex())
            for slot in 0..<stage.slotCount { try engine.execute(fill(slot)) }
            if family.count > 1 { try engine.execute(entities()) }
        }
    }

    /// Indexes the merged rows by their identity columns when the store's table holds objects
    /// already and the engine does not hash joins (``SQLDialect/hashesJoins``). Statements over
    /// the stored objects (orphans, released children, deletions, unchanged objects) look up each
    /// one's merged row by identity; without the index SQLite read every merged row for each
    /// stored object: a second run of the nested benchmark at N = 10,000 took 281 s, its first 0.74 s.
    /// Two small tables (under ``indexedFrom`` rows each) go without: each index changes the
    /// schema, which SQLite reads again, and a run of 2,000 entities of a few objects each paid
    /// more for that than the lookups cost.
    func indexIdentity(on engine: any SQLEngine) throws {
        guard !sql.dialect.hashesJoins, !stage.table.identity.isEmpty else { return }
        let held = { (table: String) in
            try engine.count("SELECT count(*) FROM (SELECT 1 FROM \(self.sql.q(table)) LIMIT \(Self.indexedFrom)) AS h")
        }
        let stored = try held(stage.table.name)
        guard stored > 0, try stored == Self.indexedFrom || held(stage.rowsName) == Self.indexedFrom else { return }
        try engine.execute(
            "CREATE INDEX \(sql.q("\(stage.rowsName)_identity")) ON \(sql.q(stage.rowsName)) "
                + "(\(sql.dialect.list(stage.table.identityNames)))")
    }

    /// How many rows a stored table or a run's merged rows hold before the merged rows are indexed
    /// by identity (``indexIdentity(on:)``): below it on both sides, a lookup reads at most that many.
    static let indexedFrom = 1000

    private func createRows() -> String {
        let keys = stage.keyColumns
        let definitions = rowColumns.map { column -> String in
            // A lone whole-number key is SQLite's rowid: the rows come out in identity order.
            if keys.count == 1, column.name == "_k0", column.type == .int, sql.dialect.upsertsInOrder {
                return "\(sql.q(column.name)) INTEGER PRIMARY KEY"
            }
            return sql.dialect.definition(column)
        }
        // Without ordered upserts, the key is built once the rows are in (``rowsKey()``).
        let key =
            !sql.dialect.upsertsInOrder || (keys.count == 1 && keys[0].type == .int)
            ? [] : ["PRIMARY KEY (\(sql.dialect.list(keys.map(\.name))))"]
        return "CREATE TEMPORARY TABLE \(sql.q(stage.rowsName)) (\((definitions + key).joined(separator: ", ")))"
    }

    /// The stage's columns as the merged row takes them from one occurrence `s`.
    private var selected: [String] {
        let base =
            (stage.keyColumns + StageTable.occurrenceColumns + stage.maskColumns + stage.table.columns
            + stage.connectionKeys.map(\.layout)).map { sql.column("s", $0.name) }
        return base + stage.trackedSlots.map { "CASE WHEN \(sql.present($0, "s")) THEN s.\(sql.q("_seq")) END" }
    }

    private var insertPrefix: String {
        "INSERT INTO \(sql.q(stage.rowsName)) (\(sql.dialect.list(rowColumns.map(\.name)))) SELECT \(selected.joined(separator: ", ")) "
            + "FROM \(sql.q(stage.stageName)) AS s"
    }

    /// SQLite: every occurrence in order, each merged into the row of its identity.
    private func orderedUpsert() -> String {
        "\(insertPrefix) WHERE true ORDER BY s.\(sql.q("_seq")) ON CONFLICT (\(keyList)) DO UPDATE SET \(conflictSets.joined(separator: ", "))"
    }

    /// The statement that merges a batch of occurrences into the rows as they are staged: a
    /// `VALUES` list of occurrences in ``StageTable/stageColumns`` order, read in order.
    var stagingUpsert: StagingUpsert {
        let names = stage.stageColumns.map { sql.q($0.name) }.joined(separator: ", ")
        return StagingUpsert(
            width: stage.stageColumns.count, head: "WITH s (\(names)) AS (", tail: ") " + upsert(from: "s", order: ""))
    }

    /// Merges the occurrences staged while the rows are merged while staging (a table whose
    /// identities came out of order, ``StagingKeyOrder``) into the rows, in identity order, each
    /// identity's in sequence, and empties them. They are all later than the rows' occurrences.
    func mergeOutOfOrder(on engine: any SQLEngine) throws {
        let occurrences = sql.q(stage.stageName)
        guard try engine.count("SELECT count(*) FROM (SELECT 1 FROM \(occurrences) LIMIT 1) AS o") > 0 else { return }
        let order = (stage.keyColumns.map(\.name) + ["_seq"]).map { "s.\(sql.q($0))" }.joined(separator: ", ")
        try engine.execute(upsert(from: "\(occurrences) AS s", order: " ORDER BY \(order)"))
        try engine.execute("DELETE FROM \(occurrences)")
    }

    /// Occurrences `s` from `source`, in `order`, each merged into the row of its identity.
    private func upsert(from source: String, order: String) -> String {
        let rows = sql.q(stage.rowsName)
        let mixed =
            "\(sql.q("_mixed")) = CASE WHEN \(rows).\(sql.q("_origin")) <> excluded.\(sql.q("_origin")) THEN 1 "
            + "ELSE \(rows).\(sql.q("_mixed")) END"
        return "INSERT INTO \(rows) (\(sql.dialect.list(rowColumns.map(\.name)))) "
            + "SELECT \((selected + ["s.\(sql.q("_seq"))", "0"]).joined(separator: ", ")) FROM \(source) WHERE true\(order) "
            + "ON CONFLICT (\(keyList)) DO UPDATE SET \((conflictSets + [mixed]).joined(separator: ", "))"
    }

    private var keyList: String { sql.dialect.list(stage.keyColumns.map(\.name)) }

    /// What an occurrence (`excluded`) does to the row of its identity met before: the place is
    /// its own, a value it carries replaces the row's, the masks unite.
    private var conflictSets: [String] {
        let rows = sql.q(stage.rowsName)
        func mine(_ name: String) -> String { "\(rows).\(sql.q(name))" }
        func theirs(_ name: String) -> String { "excluded.\(sql.q(name))" }
        var sets: [String] = ["_seq", "_top", "_origin", "_record", "_path"].map { "\(sql.q($0)) = \(theirs($0))" }
        sets.append(
            "\(sql.q("_entity")) = \(entityFold(current: mine("_entity"), incoming: theirs("_entity"), typed: theirs("_typed")))"
        )
        sets.append("\(sql.q("_typed")) = CASE WHEN \(theirs("_typed")) = 1 THEN 1 ELSE \(mine("_typed")) END")
        for mask in stage.maskColumns { sets.append("\(sql.q(mask.name)) = \(mine(mask.name)) | \(theirs(mask.name))") }
        for (position, column) in stage.table.columns.enumerated() {
            sets.append(
                "\(sql.q(column.name)) = CASE WHEN \(sql.present(position, "excluded")) THEN \(theirs(column.name)) ELSE \(mine(column.name)) END"
            )
        }
        for key in stage.connectionKeys {
            sets.append(
                "\(sql.q(key.name)) = CASE WHEN \(sql.present(key.column, "excluded")) THEN \(theirs(key.name)) ELSE \(mine(key.name)) END"
            )
        }
        for slot in stage.trackedSlots {
            let name = "_at\(slot)"
            sets.append(
                "\(sql.q(name)) = CASE WHEN \(sql.present(slot, "excluded")) THEN \(theirs("_seq")) ELSE \(mine(name)) END"
            )
        }
        return sets
    }

    /// An untyped occurrence declared as `incoming` keeps the `current` entity when that is a kind
    /// of it (a record that does not say its type keeps the sub-entity its object has); a typed one sets it.
    func entityFold(current: String, incoming: String, typed: String) -> String {
        let kinds = kindPairs
        guard !kinds.isEmpty else { return "CASE WHEN \(typed) = 1 THEN \(incoming) ELSE \(current) END" }
        let pairs = kinds.map { "(\(current) = \($0.0) AND \(incoming) = \($0.1))" }.joined(separator: " OR ")
        return "CASE WHEN \(typed) = 1 THEN \(incoming) WHEN \(pairs) THEN \(current) ELSE \(incoming) END"
    }

    /// The pairs (sub-entity, entity it extends) of the family, by index.
    var kindPairs: [(Int, Int)] {
        family.flatMap { derived in
            family.compactMap { base in
                derived !== base && schema.model.entity(derived.mapping, isKindOf: base.name)
                    ? (derived.index, base.index) : nil
            }
        }
    }

    /// How many entities `type` extends, one above the other.
    func depth(of type: EntityType) -> Int {
        var depth = 0
        var current = type.mapping
        while let parent = current.parent, let next = schema.model.entity(named: parent) {
            depth += 1
            current = next
        }
        return depth
    }

    // MARK: - Without ordered upserts

    /// The merged rows' unique key, built in one pass once they are in (on a million rows, an index
    /// kept up by the insert cost 3.8 s more than one built after it, 0.7 s).
    private func rowsKey() -> String {
        "CREATE UNIQUE INDEX \(sql.q("\(stage.rowsName)_key")) ON \(sql.q(stage.rowsName)) "
            + "(\(sql.dialect.list(stage.keyColumns.map(\.name))))"
    }

    /// An index of the occurrences by identity and sequence: the statements below look up the
    /// occurrences of one identity for each merged row. ``RequiredCheck`` made the same one already
    /// when the model has required attributes (PostgreSQL's index names are one namespace per schema).
    private func occurrenceIndex() -> String {
        let columns = stage.keyColumns.map(\.name) + ["_seq"]
        return
            "CREATE INDEX IF NOT EXISTS \(sql.q("\(stage.stageName)_keys")) ON \(sql.q(stage.stageName)) (\(sql.dialect.list(columns)))"
    }

    /// The last occurrence of each identity, whole.
    private func lastOccurrences() -> String {
        let later =
            "SELECT 1 FROM \(sql.q(stage.stageName)) AS l WHERE "
            + stage.keyColumns.map { "l.\(sql.q($0.name)) = s.\(sql.q($0.name))" }.joined(separator: " AND ")
            + " AND l.\(sql.q("_seq")) > s.\(sql.q("_seq"))"
        return "\(insertPrefix) WHERE NOT EXISTS (\(later))"
    }

    /// Fills `slot` in the rows whose last occurrence lacked it from the latest occurrence that had it.
    private func fill(_ slot: Int) -> String {
        let rows = sql.q(stage.rowsName)
        let keys = stage.keyColumns.map { "e.\(sql.q($0.name)) = \(rows).\(sql.q($0.name))" }.joined(separator: " AND ")
        let latest =
            "FROM \(sql.q(stage.stageName)) AS e WHERE \(keys) AND \(sql.present(slot, "e")) ORDER BY e.\(sql.q("_seq")) DESC LIMIT 1"
        var sets = sql.markPresent([slot], rows)
        if slot < stage.table.columns.count {
            let name = stage.table.columns[slot].name
            sets.append("\(sql.q(name)) = (SELECT e.\(sql.q(name)) \(latest))")
            for key in stage.connectionKeys where key.column == slot {
                sets.append("\(sql.q(key.name)) = (SELECT e.\(sql.q(key.name)) \(latest))")
            }
        }
        if stage.trackedSlots.contains(slot) {
            sets.append("\(sql.q("_at\(slot)")) = (SELECT e.\(sql.q("_seq")) \(latest))")
        }
        return "UPDATE \(rows) SET \(sets.joined(separator: ", ")) WHERE NOT (\(sql.present(slot, rows))) "
            + "AND EXISTS (SELECT 1 \(latest))"
    }

    /// The entity of identities met more than once (in a table of several entities): the last typed
    /// occurrence's, else the most derived declared one (the ordered fold's result when every
    /// declaration is of one line).
    private func entities() -> String {
        let rows = sql.q(stage.rowsName)
        let keys = stage.keyColumns.map { "e.\(sql.q($0.name)) = \(rows).\(sql.q($0.name))" }.joined(separator: " AND ")
        let depths = family.map { "WHEN \($0.index) THEN \(self.depth(of: $0))" }.joined(separator: " ")
        let order = "CASE e.\(sql.q("_entity")) \(depths) ELSE 0 END"
        return
            "UPDATE \(rows) SET \(sql.q("_entity")) = (SELECT e.\(sql.q("_entity")) FROM \(sql.q(stage.stageName)) AS e WHERE \(keys) "
            + "ORDER BY e.\(sql.q("_typed")) DESC, \(order) DESC, e.\(sql.q("_seq")) DESC LIMIT 1), "
            + "\(sql.q("_typed")) = (SELECT max(e.\(sql.q("_typed"))) FROM \(sql.q(stage.stageName)) AS e WHERE \(keys)) "
            + "WHERE EXISTS (SELECT 1 FROM \(sql.q(stage.stageName)) AS e WHERE \(keys) AND e.\(sql.q("_seq")) <> \(rows).\(sql.q("_seq")))"
    }
}
