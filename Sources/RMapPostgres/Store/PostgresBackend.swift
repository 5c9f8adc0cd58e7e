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
/// or links are loaded with `COPY ... FROM STDIN`: straight into a table for
/// rows it holds nothing for (``FreshTableLoader``), else into a temporary staging table (one
/// per column list and transaction, emptied with `TRUNCATE`; temporary tables
/// write no WAL) merged with one `INSERT ... ON CONFLICT`. Bases are kept for the rows changed
/// locally alone, by triggers that rmap's own writes leave alone (``PostgresBaseCapture``).
final class PostgresBackend: SyncBackend {
    /// Rows from which an upsert goes through `COPY` rather than array parameters.
    static let copyThreshold = 64

    let connection: PostgresConnection
    /// Rows and links loaded through `COPY` into staging tables, for tests that check which path is taken.
    private(set) var stagedRows = 0
    /// False sends fresh tables through staging and merge too, as in a re-import: tests compare the paths.
    var loadsFreshTablesDirectly = true
    /// Loads fresh tables with `COPY` straight into them; counts those rows (``FreshTableLoader/copiedRows``).
    let freshTables: FreshTableLoader
    /// The indexes of this transaction's new tables, built once their rows are in.
    private let laterIndexes: LaterIndexes
    /// This transaction's staging tables, by column definitions.
    private var stages: [String: String] = [:]

    init(connection: PostgresConnection) {
        self.connection = connection
        freshTables = FreshTableLoader(connection: connection)
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

    /// A snapshot that only reads, without the advisory lock: a run writing meanwhile neither waits nor shows.
    func beginRead() throws {
        endStaging()
        try connection.execute(PostgresSession.beginRead)
    }

    func rollback() {
        endStaging()
        try? connection.execute("ROLLBACK")
    }

    /// Forgets the staging tables, which the transaction's end drops.
    private func endStaging() {
        stages.removeAll()
        freshTables.reset()
        laterIndexes.reset()
    }

    // MARK: - Schema

    func ensureSchema(_ layout: StoreLayout) throws {
        try laterIndexes.create(schemaDiff(layout))
        let statements = try PostgresCatalog(connection: connection).captureStatements(layout)
        guard !statements.isEmpty else { return }
        try connection.execute(statements.joined(separator: ";\n"))
    }

    /// The catalog tells.
    var tellsSchema: Bool { true }

    func holdsSchema(_ layout: StoreLayout) throws -> Bool {
        try schemaDiff(layout).isEmpty && PostgresCatalog(connection: connection).captureStatements(layout).isEmpty
    }

    /// What the current schema's tables lack for `layout`.
    private func schemaDiff(_ layout: StoreLayout) throws -> SchemaDiff {
        let existing = try PostgresCatalog(connection: connection).columns(of: SchemaDiff.tableNames(layout))
        return SchemaDiff(layout, existing: existing.mapValues(Set.init))
    }

    func isEmpty(_ table: TableLayout) throws -> Bool {
        try connection.query(PostgresSchema.isEmptyQuery(table)).rows.first?.first == "t"
    }

    // MARK: - Rows

    /// A row without a base row is its own base, unless it was created locally.
    func fetch(_ table: TableLayout, identities: [[Value]]) throws -> [IdentityKey: StoredState] {
        guard !identities.isEmpty else { return [:] }
        let result = try connection.query(
            PostgresBaseCapture.fetch(table), PostgresSchema.arrays(identities, width: table.identity.count))
        let width = table.columns.count
        var states = [IdentityKey: StoredState](minimumCapacity: result.rows.count)
        for row in result.rows {
            guard let position = row[2].flatMap(Int.init) else { continue }
            let values = row[0] == "t" ? decode(row, table, from: 4) : nil
            let base = row[1] == "t" ? decode(row, table, from: 4 + width) : row[3] == "t" ? nil : values
            states[IdentityKey(identities[position - 1])] = StoredState(row: values, base: base)
        }
        return states
    }

    /// One query per set of keys present (usually one a batch), compared in the server: nothing is decoded.
    func matchesBase(_ table: TableLayout, _ rows: [[Value?]]) throws -> [Bool] {
        var groups: [[Bool]: [Int]] = [:]
        for (offset, row) in rows.enumerated() { groups[row.map { $0 != nil }, default: []].append(offset) }
        var matches = [Bool](repeating: false, count: rows.count)
        for (present, offsets) in groups {
            let columns = table.comparedColumns(present: present)
            let values = offsets.map { offset in columns.map { rows[offset][$0] ?? .null } }
            let result = try connection.query(
                PostgresBaseCapture.matchBase(table, columns: columns), PostgresSchema.arrays(values, width: columns.count))
            for row in result.rows {
                guard let position = row[0].flatMap(Int.init) else { continue }
                matches[offsets[position - 1]] = true
            }
        }
        return matches
    }

    private func decode(_ row: [String?], _ table: TableLayout, from offset: Int) -> [Value] {
        table.columns.enumerated().map { PostgresValueText.decode(row[offset + $0], as: $1.type) }
    }

    func upsertRows(_ table: TableLayout, _ rows: [[Value]]) throws {
        try upsert(into: table.name, table, rows)
    }

    func upsertBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        try upsert(into: table.baseName, table, rows)
    }

    /// The rows alone (a row without a base is the server's state, ``PostgresBaseCapture``): large
    /// batches straight into the table with `COPY` where ``FreshTableLoader`` can, else an upsert.
    func insertFresh(_ table: TableLayout, _ rows: [[Value]]) throws {
        if rows.count >= Self.copyThreshold, loadsFreshTablesDirectly, try freshTables.insert(table, rows) { return }
        try upsertRows(table, rows)
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
        stagedRows += try connection.copyIn(
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

    func identities(_ table: TableLayout) throws -> [(identity: [Value], type: String?)] {
        var columns = table.identity.map { table.columns[$0] }
        if let discriminator = table.discriminator { columns.append(table.columns[discriminator]) }
        let list = PostgresSchema.list(columns.map(\.name))
        let result = try connection.query(
            "SELECT \(list) FROM \(PostgresSchema.quote(table.name)) UNION "
                + "SELECT \(list) FROM \(PostgresSchema.quote(table.baseName))")
        let count = table.identity.count
        return result.rows.map { row in
            let identity = (0..<count).map { PostgresValueText.decode(row[$0], as: columns[$0].type) }
            return (identity, table.discriminator == nil ? nil : row[count])
        }
    }

    func delete(_ table: TableLayout, identities: [[Value]]) throws {
        try deleteMatching(table.name, table.identity.map { table.columns[$0] }, identities)
        try deleteBase(table, identities: identities)
        try deleteInserted(table, identities: identities)
    }

    func replaceLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[Value]]) throws {
        try deleteMatching(join.name, Array(join.columns.prefix(join.sourceColumnCount)), sources)
        guard !links.isEmpty else { return }
        if sources.isEmpty, links.count >= Self.copyThreshold, loadsFreshTablesDirectly,
            try freshTables.insertLinks(join, links)
        {
            return
        }
        freshTables.merged(into: join)
        try laterIndexes.buildKey(of: join)
        let insert =
            "INSERT INTO \(PostgresSchema.quote(join.name)) (\(PostgresSchema.list(join.columns.map(\.name)))) "
        guard links.count >= Self.copyThreshold else {
            try connection.query(
                insert + "SELECT * FROM \(PostgresSchema.unnest(join.columns, alias: "l")) ON CONFLICT DO NOTHING",
                PostgresSchema.arrays(links, width: join.columns.count))
            return
        }
        let stage = try copy(links, join.columns)
        try connection.execute(insert + "SELECT * FROM \(stage) ON CONFLICT DO NOTHING")
    }

    /// One query a batch for the sources' stored links, compared as sets.
    func holdsLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[[Value]]]) throws -> [Bool] {
        guard !sources.isEmpty else { return [] }
        let keys = Array(join.columns.prefix(join.sourceColumnCount))
        let result = try connection.query(
            PostgresSchema.links(of: join), PostgresSchema.arrays(sources, width: keys.count))
        var stored: [IdentityKey: Set<[Value]>] = [:]
        for link in decodeLinks(result, join) {
            stored[IdentityKey(Array(link.prefix(keys.count))), default: []].insert(link)
        }
        return zip(sources, links).map { source, wanted in
            let held = stored[IdentityKey(source)] ?? []
            return join.union ? Set(wanted).isSubset(of: held) : Set(wanted) == held
        }
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

    /// Read from the base rows and the identities created locally: O(rows changed).
    func localChanges(_ table: TableLayout) throws -> TableChanges {
        let width = table.columns.count
        let rows = try connection.query(PostgresBaseCapture.changedRows(table)).rows.map { row in
            (
                row: StoredRow(reference: row[0].flatMap { Int64($0) } ?? 0, values: decode(row, table, from: 1)),
                base: row[width + 1] == "t" ? decode(row, table, from: width + 2) : nil
            )
        }
        let deleted = try connection.query(PostgresBaseCapture.deletedBases(table)).rows.map { decode($0, table, from: 0) }
        return TableChanges(rows: rows, deleted: deleted)
    }

    func scanLinks(_ join: JoinTableLayout) throws -> [[Value]] {
        decodeLinks(
            try connection.query(
                "SELECT \(PostgresSchema.list(join.columns.map(\.name))) FROM \(PostgresSchema.quote(join.name))"),
            join)
    }

    /// One query for the links of every source, by the join table's key.
    func links(_ join: JoinTableLayout, sources: [[Value]]) throws -> [[Value]] {
        guard !sources.isEmpty else { return [] }
        let result = try connection.query(
            PostgresSchema.links(of: join), PostgresSchema.arrays(sources, width: join.sourceColumnCount))
        return decodeLinks(result, join)
    }

    /// One query by the destination columns.
    func links(_ join: JoinTableLayout, destination: [Value]) throws -> [[Value]] {
        let matching = join.destinationColumns.enumerated().map { "\(PostgresSchema.quote($1.name)) = $\($0 + 1)" }
        let result = try connection.query(
            "SELECT \(PostgresSchema.list(join.columns.map(\.name))) FROM \(PostgresSchema.quote(join.name)) "
                + "WHERE \(matching.joined(separator: " AND "))", destination.map(PostgresValueText.encode))
        return decodeLinks(result, join)
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

    func deleteBase(_ table: TableLayout, identities: [[Value]]) throws {
        try deleteMatching(table.baseName, table.identity.map { table.columns[$0] }, identities)
    }
}
