import RMap

/// The ``StoreBackend`` of the `postgres` store: the primitives as a few
/// statements per batch on one connection (see ``PostgresSchema`` for the tables).
///
/// A write is one transaction (`BEGIN ... COMMIT`), schema changes included:
/// PostgreSQL's DDL is transactional, so a failed run leaves every table as
/// before. ``begin()`` also takes a transaction-level advisory lock on the
/// current schema, so two runs against the same tables write one after the
/// other, as SQLite's `BEGIN IMMEDIATE` makes them. Sets of identities travel
/// as array parameters (`unnest`); batches of at least ``copyThreshold`` rows
/// are loaded with `COPY ... FROM STDIN` into a temporary staging table (one
/// per column list and transaction, emptied with `TRUNCATE`; temporary tables
/// write no WAL) merged with one `INSERT ... ON CONFLICT`. Bases are kept for the rows changed
/// locally alone, by triggers that rmap's own writes leave alone (``PostgresBaseCapture``).
final class PostgresBackend: SyncBackend {
    /// Rows from which an upsert goes through `COPY` rather than array parameters.
    static let copyThreshold = 64

    let connection: PostgresConnection
    /// The indexes of this transaction's new tables, built once their rows are in.
    private let laterIndexes: LaterIndexes
    /// This transaction's staging tables, by column definitions.
    private var stages: [String: String] = [:]

    init(connection: PostgresConnection) {
        self.connection = connection
        laterIndexes = LaterIndexes(connection: connection)
    }

    /// Writes are rmap's own until ``setLocalEdits(_:)`` says otherwise (``PostgresBaseCapture``).
    func begin() throws {
        endStaging()
        try connection.execute(PostgresSession.beginWrite)
    }

    func setLocalEdits(_ local: Bool) throws {
        try connection.execute(PostgresBaseCapture.setOwnWrites(!local))
    }

    func commit() throws {
        try laterIndexes.buildAll()
        endStaging()
        try CommitGate.commit { try PostgresSession.commit(on: connection) }
    }

    func rollback() {
        endStaging()
        try? connection.execute("ROLLBACK")
    }

    /// Forgets the staging tables, which the transaction's end drops.
    private func endStaging() {
        stages.removeAll()
        laterIndexes.reset()
    }

    // MARK: - Schema

    func ensureSchema(_ layout: StoreLayout) throws {
        try laterIndexes.create(schemaDiff(layout))
        let statements = try PostgresCatalog(connection: connection).captureStatements(layout)
        guard !statements.isEmpty else { return }
        try connection.execute(statements.joined(separator: ";\n"))
    }

    func holdsSchema(_ layout: StoreLayout) throws -> Bool {
        try schemaDiff(layout).isEmpty && PostgresCatalog(connection: connection).captureStatements(layout).isEmpty
    }

    /// What the current schema's tables lack for `layout`.
    private func schemaDiff(_ layout: StoreLayout) throws -> SchemaDiff {
        let existing = try PostgresCatalog(connection: connection).columns(of: SchemaDiff.tableNames(layout))
        return SchemaDiff(layout, existing: existing.mapValues(Set.init))
    }

    // MARK: - Rows

    private func decode(_ row: [String?], _ table: TableLayout, from offset: Int) -> [Value] {
        table.columns.enumerated().map { PostgresValueText.decode(row[offset + $0], as: $1.type) }
    }

    func upsertRows(_ table: TableLayout, _ rows: [[Value]]) throws {
        try upsert(into: table.name, table, rows)
    }

    func upsertBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        try upsert(into: table.baseName, table, rows)
    }

    /// Drops the rows' bases and their notes of a local creation: a row without them is the server's state.
    func settleBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        let identities = rows.map { table.identityValues(of: $0) }
        try deleteBase(table, identities: identities)
        try deleteInserted(table, identities: identities)
    }

    private func deleteInserted(_ table: TableLayout, identities: [[Value]]) throws {
        try deleteMatching(PostgresBaseCapture.insertedName(table), table.identity.map { table.columns[$0] }, identities)
    }

    /// Small batches as array parameters in one statement; large ones by `COPY` into the table's
    /// staging table.
    private func upsert(into name: String, _ table: TableLayout, _ rows: [[Value]]) throws {
        guard !rows.isEmpty else { return }
        guard rows.count >= Self.copyThreshold else {
            let source = PostgresSchema.unnest(table.columns, alias: "s")
            try connection.query(
                PostgresSchema.upsert(into: name, table, from: source),
                PostgresSchema.arrays(rows, width: table.columns.count))
            return
        }
        let stage = try copy(rows, table.columns)
        try connection.execute(PostgresSchema.upsert(into: name, table, from: "\(stage) AS s"))
    }

    /// Loads `rows` into the staging table of `columns` with `COPY`, replacing what it held; returns its name.
    private func copy(_ rows: [[Value]], _ columns: [ColumnLayout]) throws -> String {
        let stage = try stageTable(for: columns)
        try connection.execute("TRUNCATE \(stage)")
        _ = try connection.copyIn(
            "COPY \(stage) (\(PostgresSchema.list(columns.map(\.name)))) FROM STDIN",
            rows: rows.lazy.map { $0.map(PostgresValueText.encode) })
        return stage
    }

    /// The temporary table that stages rows of these columns in this transaction, created on first use.
    private func stageTable(for columns: [ColumnLayout]) throws -> String {
        let definitions = columns.map(PostgresSchema.definition).joined(separator: ", ")
        if let stage = stages[definitions] { return stage }
        let stage = PostgresSchema.quote("_rmap_stage_\(stages.count)")
        try connection.execute("CREATE TEMPORARY TABLE \(stage) (\(definitions)) ON COMMIT DROP")
        stages[definitions] = stage
        return stage
    }

    private func deleteMatching(_ name: String, _ columns: [ColumnLayout], _ keys: [[Value]]) throws {
        guard !keys.isEmpty else { return }
        try connection.query(
            PostgresSchema.delete(from: name, matching: columns), PostgresSchema.arrays(keys, width: columns.count))
    }

    // MARK: - Reading

    func scanRows(_ table: TableLayout) throws -> [StoredRow] {
        let rowid = PostgresSchema.quote(PostgresSchema.rowid)
        let result = try connection.query(
            "SELECT \(rowid), \(PostgresSchema.list(table.columns.map(\.name))) "
                + "FROM \(PostgresSchema.quote(table.name)) ORDER BY \(rowid)")
        return result.rows.map { row in
            StoredRow(reference: row[0].flatMap { Int64($0) } ?? 0, values: decode(row, table, from: 1))
        }
    }

    /// The base rows and the rows that are their own base (``PostgresBaseCapture``).
    func scanBase(_ table: TableLayout) throws -> [[Value]] {
        try connection.query(PostgresBaseCapture.scanBase(table)).rows.map { decode($0, table, from: 0) }
    }

    func scanLinks(_ join: JoinTableLayout) throws -> [[Value]] {
        decodeLinks(
            try connection.query(
                "SELECT \(PostgresSchema.list(join.columns.map(\.name))) FROM \(PostgresSchema.quote(join.name))"),
            join)
    }

    private func decodeLinks(_ result: PostgresResult, _ join: JoinTableLayout) -> [[Value]] {
        result.rows.map { row in join.columns.enumerated().map { PostgresValueText.decode(row[$0], as: $1.type) } }
    }

    func updateRow(_ table: TableLayout, reference: RowReference, values: [Value]) throws {
        let assignments = table.columns.enumerated().map { "\(PostgresSchema.quote($1.name)) = $\($0 + 1)" }
        try connection.query(
            "UPDATE \(PostgresSchema.quote(table.name)) SET \(assignments.joined(separator: ", ")) "
                + "WHERE \(PostgresSchema.quote(PostgresSchema.rowid)) = $\(values.count + 1)",
            values.map(PostgresValueText.encode) + [String(reference)])
    }

    private func deleteBase(_ table: TableLayout, identities: [[Value]]) throws {
        try deleteMatching(table.baseName, table.identity.map { table.columns[$0] }, identities)
    }
}
