import RMap

/// The ``StoreBackend`` of the `sqlite` store: the primitives as cached prepared
/// statements on one connection (see ``SQLiteSchema`` for the tables).
///
/// A write is one `BEGIN IMMEDIATE ... COMMIT` transaction: schema changes
/// included, a rollback (or a killed process) leaves the file as before.
final class SQLiteBackend: SyncBackend {
    let connection: SQLiteConnection
    /// In a write transaction: whether its writes are local edits (``setLocalEdits(_:)``), and
    /// whether the row of ``SQLiteBaseCapture/ownWrites`` that says they are not is in place.
    private var localEdits = false
    private var ownWritesFlagged = false
    private var writing = false
    /// The insert triggers and join-table indexes dropped for rmap's own bulk inserts in this
    /// transaction, and the indexes its schema changes create, made at commit.
    private var suspended = SQLiteSuspendedSchema()

    init(connection: SQLiteConnection) throws {
        self.connection = connection
        // A rollback journal (no WAL), synced at commit only. An 8 MiB cache: a larger cache
        // only grew the RSS (16 MiB was no faster at 1.4M rows, 4 MiB doubled the system time, 128 MiB was slower,
        // by page faults; 32 MiB and a 256 MiB mmap_size were not measurably faster on shuffled ids).
        // 8 KiB pages for a new file (an existing one keeps its own). Sorts beyond the cache spill to temporary
        // files, not memory: a join table's index built at commit (SQLiteSuspendedSchema) from 900,000 links took
        // 0.7-1.5 s and 8 MiB more RSS with them, 1.5-1.7 s and 41 MiB in memory.
        try connection.execute(
            "PRAGMA page_size = 8192; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; "
                + "PRAGMA cache_size = -8192; PRAGMA temp_store = FILE")
    }

    /// Writes are rmap's own until ``setLocalEdits(_:)`` says otherwise; the flag row goes in
    /// before the first of them (a transaction that writes nothing leaves the file as it was).
    /// `BEGIN IMMEDIATE`, the connection's mirror told first (and told of the end when it fails).
    func begin() throws {
        try connection.mirror?.willBegin(writing: true, on: connection)
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            connection.mirror?.didEnd(committed: false)
            throw error
        }
        writing = true
        localEdits = false
        ownWritesFlagged = false
    }

    /// Makes the suspended triggers and indexes again and deletes the flag row first: no other
    /// connection ever sees either missing or set. The mirror is written inside the ``CommitGate``.
    func commit() throws {
        try suspended.restore(on: connection)
        if ownWritesFlagged { try connection.execute(SQLiteBaseCapture.clearOwnWrites) }
        try CommitGate.commit {
            if writing { try connection.mirror?.willCommit(on: connection) }
            try connection.execute("COMMIT")
        }
        endTransaction()
        connection.mirror?.didEnd(committed: true)
    }

    func rollback() {
        if connection.inTransaction { try? connection.execute("ROLLBACK") }
        endTransaction()
        connection.mirror?.didEnd(committed: false)
    }

    private func endTransaction() {
        writing = false
        suspended.reset()
        localEdits = false
        ownWritesFlagged = false
    }

    func setLocalEdits(_ local: Bool) throws {
        localEdits = local
        guard local, ownWritesFlagged else { return }
        try connection.execute(SQLiteBaseCapture.clearOwnWrites)
        ownWritesFlagged = false
    }

    /// Before a write: puts the flag row in place when the write is rmap's own (``SQLiteBaseCapture``).
    private func flagOwnWrite() throws {
        guard writing, !localEdits, !ownWritesFlagged else { return }
        try connection.execute(SQLiteBaseCapture.setOwnWrites)
        ownWritesFlagged = true
    }

    // MARK: - Schema

    func ensureSchema(_ layout: StoreLayout) throws {
        let diff = try schemaDiff(layout)
        for sql in try diff.statements(SQLiteSchema.self) where !suspended.postpones(sql, on: connection) {
            try connection.execute(sql)
        }
        try connection.mirror?.created(diff.changes, on: connection)
        for sql in try connection.captureStatements(layout) { try connection.execute(sql) }
        try connection.mirror?.captured(layout, on: connection)
    }

    func holdsSchema(_ layout: StoreLayout) throws -> Bool {
        try schemaDiff(layout).isEmpty && connection.captureStatements(layout).isEmpty
    }

    /// What the file's tables lack for `layout`.
    private func schemaDiff(_ layout: StoreLayout) throws -> SchemaDiff {
        var existing: [String: Set<String>] = [:]
        for name in SchemaDiff.tableNames(layout) { existing[name] = try columns(of: name) }
        return SchemaDiff(layout, existing: existing)
    }

    private func columns(of table: String) throws -> Set<String> { Set(try connection.orderedColumns(of: table)) }

    // MARK: - Rows

    private func read(_ statement: SQLiteStatement, _ table: TableLayout, from offset: Int32) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(table.columns.count)
        for (index, column) in table.columns.enumerated() {
            values.append(statement.value(offset + Int32(index), as: column.type))
        }
        return values
    }

    func upsertRows(_ table: TableLayout, _ rows: [[Value]]) throws {
        try insert(rows, width: table.columns.count) { SQLiteSchema.upsert(into: table.name, table, rows: $0) }
    }

    func upsertBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        try insert(rows, width: table.columns.count) {
            SQLiteSchema.upsert(into: table.baseName, table, rows: $0)
        }
    }

    /// Drops the rows' bases and their notes of a local creation: a row without them is the server's state.
    func settleBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        let identities = rows.map { table.identityValues(of: $0) }
        try deleteBase(table, identities: identities)
        try run(SQLiteSchema.delete(from: SQLiteBaseCapture.insertedName(table), where: table.identityNames), identities)
    }

    /// Runs an `INSERT` of `rows`, `sql(n)` being its text for `n` rows: whole groups of
    /// ``SQLiteConnection/rowsPerInsert(width:)`` rows a statement, then the rest one by one.
    /// A statement run costs its set-up (cursors, locks, checks) whatever its size: a group
    /// of 32 rows halved the time of inserting a million rows one statement each.
    private func insert(_ rows: [[Value]], width: Int, _ sql: (_ rows: Int) -> String) throws {
        guard !rows.isEmpty else { return }
        try flagOwnWrite()
        let group = connection.rowsPerInsert(width: width)
        var start = rows.startIndex
        if group > 1, rows.count >= group {
            let statement = try connection.statement(sql(group))
            while rows.endIndex - start >= group {
                statement.bind(rows: rows[start..<start + group])
                try statement.run()
                start += group
            }
        }
        try run(sql(1), rows[start...])
    }

    private func run(_ sql: String, _ rows: some Collection<[Value]>) throws {
        guard !rows.isEmpty else { return }
        try flagOwnWrite()
        let statement = try connection.statement(sql)
        for row in rows {
            statement.bind(row)
            try statement.run()
        }
    }

    // MARK: - Reading

    func scanRows(_ table: TableLayout) throws -> [StoredRow] {
        let statement = try connection.statement(SQLiteSchema.selectWithRowid(table))
        statement.bind([Value]())
        var rows: [StoredRow] = []
        while try statement.step() {
            rows.append(StoredRow(reference: statement.int(0), values: read(statement, table, from: 1)))
        }
        return rows
    }

    func scanLinks(_ join: JoinTableLayout) throws -> [[Value]] {
        let statement = try connection.statement(
            "SELECT \(SQLiteSchema.list(join.columns.map(\.name))) FROM \(SQLiteSchema.quote(join.name))")
        statement.bind([Value]())
        var links: [[Value]] = []
        while try statement.step() {
            links.append(join.columns.enumerated().map { statement.value(Int32($0), as: $1.type) })
        }
        return links
    }

    /// The base rows and the rows that are their own base (``SQLiteBaseCapture``).
    func scanBase(_ table: TableLayout) throws -> [[Value]] {
        try readAll(SQLiteBaseCapture.scanBase(table), table)
    }

    private func readAll(_ sql: String, _ table: TableLayout) throws -> [[Value]] {
        let statement = try connection.statement(sql)
        statement.bind([Value]())
        var rows: [[Value]] = []
        while try statement.step() { rows.append(read(statement, table, from: 0)) }
        return rows
    }

    func updateRow(_ table: TableLayout, reference: RowReference, values: [Value]) throws {
        try flagOwnWrite()
        let assignments = table.columns.map { "\(SQLiteSchema.quote($0.name)) = ?" }.joined(separator: ", ")
        let statement = try connection.statement(
            "UPDATE \(SQLiteSchema.quote(table.name)) SET \(assignments) WHERE rowid = ?")
        statement.bind(values)
        statement.bind(int: reference, at: Int32(values.count + 1))
        try statement.run()
    }

    private func deleteBase(_ table: TableLayout, identities: [[Value]]) throws {
        try run(
            SQLiteSchema.delete(from: table.baseName, where: table.identityNames),
            identities)
    }
}
