internal import CSQLite
public import RMap

/// The ``SQLEngine`` of the `sqlite` store: rmap's statements on one ``SQLiteConnection``,
/// prepared once each and cached by their text.
///
/// A write transaction is `BEGIN IMMEDIATE`: two runs on one file take turns, and a rollback
/// (or a killed process) leaves the file exactly as before, schema included. Inside it, rmap's
/// own writes put one row in ``SQLiteBaseCapture/ownWrites`` so that the base-capture triggers
/// leave them alone; the row is deleted before the commit, so no other connection ever sees it.
public final class SQLiteEngine: SQLEngine {
    /// The connection statements run on.
    public let connection: SQLiteConnection
    private var ownWritesFlagged = false
    private var localEdits = false
    private var writing = false
    /// What rmap's bulk inserts set aside until the commit (``willInsert(into:rowCount:)``).
    private var suspended = SQLiteSuspendedSchema()
    /// The fewest rows for which ``willInsert(into:rowCount:)`` sets triggers and indexes aside: below,
    /// dropping and making them again (each a schema change, which SQLite pays by the size of the
    /// schema) costs more than keeping them up to date.
    static let bulkInsertRows = 10_000

    /// SQLite's dialect.
    public var dialect: any SQLDialect.Type { SQLiteSchema.self }

    /// Takes over a connection: sets its pragmas and registers rmap's SQL functions.
    ///
    /// Inside a write transaction, rmap's own writes flag themselves before the first statement that
    /// writes a store table (``SQLiteBaseCapture/ownWrites``): a transaction that writes nothing of
    /// the store's (a re-run that changes nothing) leaves the file exactly as it was.
    ///
    /// A rollback journal (no WAL), synced at commit only; a 4 MiB page cache for the store and
    /// 8 MiB for the run's temporary tables (larger ones only grew the RSS, docs/performance-log.md);
    /// 8 KiB pages for a new file; sorts and temporary tables beyond the cache spill to temporary
    /// files, not memory.
    ///
    /// - Throws: ``SQLiteError``.
    public init(connection: SQLiteConnection) throws {
        self.connection = connection
        // The run's staging tables are temporary: no journal (a failed run drops them), a cache of
        // their own, the larger one: connecting reads them at random (8 MiB, against 4 for the
        // store, whose tables are written in order: 0.3 s less at N = 100,000, 8 MiB less peak RSS
        // than 4 and 8; docs/performance-log.md).
        try connection.execute(
            "PRAGMA page_size = 8192; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; "
                + "PRAGMA cache_size = -4096; PRAGMA temp_store = FILE; PRAGMA temp.journal_mode = OFF; "
                + "PRAGMA temp.cache_size = -8192")
        try SQLiteFunctions.register(on: connection)
    }

    @discardableResult
    public func execute(_ sql: String, _ parameters: [Value]) throws -> Int {
        let statement = try connection.statement(sql)
        if connection.mirror != nil, !connection.inTransaction, statement.writesStore {
            // Mirrored like any write: in a transaction, whose commit writes the mirror.
            return try transaction(.write) { try execute(sql, parameters) }
        }
        if statement.writesStore { try flagOwnWrites() }
        statement.bind(parameters)
        defer { statement.reset() }
        try statement.run()
        return connection.changes
    }

    public func query(
        _ sql: String, _ parameters: [Value], types: [AttributeType], row: ([Value]) throws -> Void
    ) throws {
        if !connection.inTransaction { try connection.mirror?.refresh(on: connection) }
        let statement = try connection.statement(sql)
        statement.bind(parameters)
        defer { statement.reset() }
        let width = Int(statement.columnCount)
        var values = [Value](repeating: .null, count: width)
        while try statement.step() {
            for column in 0..<width {
                values[column] = statement.value(Int32(column), as: column < types.count ? types[column] : .string)
            }
            try row(values)
        }
    }

    /// A multi-row `INSERT` (``execute(rows:width:statement:)``).
    public func insert(into table: String, columns: [ColumnLayout], rows: some Collection<[Value]>) throws {
        let prefix = "INSERT INTO \(SQLiteSchema.quote(table)) (\(SQLiteSchema.list(columns.map(\.name)))) "
        try execute(rows: Array(rows), width: columns.count) { prefix + $0 }
    }

    /// ``SQLiteConnection/rowsPerInsert(width:)`` rows a statement run, then the rest one by one:
    /// a statement run costs its set-up whatever its size, and a group of 32 rows halved the time
    /// of inserting a million rows one statement each. Outside a transaction (staging), the
    /// statements share one: alone, each would commit, and SQLite walks its page cache at every commit.
    public func execute(rows: [[Value]], width: Int, statement: (String) -> String) throws {
        guard !rows.isEmpty else { return }
        guard connection.inTransaction else {
            try connection.execute("BEGIN")
            do {
                try execute(rows: rows, width: width, statement: statement)
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
            return
        }
        let group = connection.rowsPerInsert(width: width)
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        let single = try connection.statement(statement("VALUES " + row))
        if single.writesStore { try flagOwnWrites() }
        var pending = rows[...]
        if group > 1, pending.count >= group {
            let grouped = try connection.statement(
                statement("VALUES " + Array(repeating: row, count: group).joined(separator: ", ")))
            while pending.count >= group {
                grouped.bind(rows: pending.prefix(group))
                try grouped.run()
                pending = pending.dropFirst(group)
            }
        }
        for values in pending {
            single.bind(values)
            try single.run()
        }
    }

    public func begin(_ kind: SQLTransactionKind) throws {
        try connection.mirror?.willBegin(writing: kind == .write, on: connection)
        do {
            switch kind {
            case .write:
                try connection.execute("BEGIN IMMEDIATE")
                writing = true
                localEdits = false
            case .read:
                // A shared lock at the first read, which a writer's reserved lock does not block.
                try connection.execute("BEGIN DEFERRED")
            }
        } catch {
            connection.mirror?.didEnd(committed: false)
            throw error
        }
    }

    /// Deletes the flag row first: no other connection ever sees it. A write commits through the
    /// ``CommitGate`` (an interruption then tells whether it landed), its mirror written first.
    public func commit() throws {
        try suspended.restore(on: connection)
        if ownWritesFlagged { try connection.execute(SQLiteBaseCapture.clearOwnWrites) }
        if writing {
            try CommitGate.commit {
                try connection.mirror?.willCommit(on: connection)
                try connection.execute("COMMIT")
            }
        } else {
            try connection.execute("COMMIT")
        }
        endTransaction()
        connection.mirror?.didEnd(committed: true)
    }

    public func rollback() {
        if connection.inTransaction { try? connection.execute("ROLLBACK") }
        endTransaction()
        connection.mirror?.didEnd(committed: false)
    }

    /// Runs the change's statements, then lets the mirror fill the tables they created. In a
    /// transaction, the new tables' indexes are built at the commit, once their rows are in.
    public func create(_ diff: SchemaDiff) throws {
        for sql in try diff.statements(dialect) where !suspended.postpones(sql, on: connection) { try execute(sql) }
        try connection.mirror?.created(diff.changes, on: connection)
    }

    public func columns(of table: String) throws -> [String] {
        try connection.mirror?.willInspect(table, on: connection)
        return try connection.orderedColumns(of: table)
    }

    /// The triggers and tables of ``SQLiteBaseCapture`` that the file lacks for `layout`.
    public func ensureCapture(_ layout: StoreLayout) throws {
        for sql in try connection.captureStatements(layout) { try connection.execute(sql) }
        try connection.mirror?.captured(layout, on: connection)
    }

    public func holdsCapture(_ layout: StoreLayout) throws -> Bool {
        try connection.captureStatements(layout).isEmpty
    }

    /// Many rows into `table` in rmap's own writes: its insert triggers (their `WHEN` still costs
    /// as much as the insert) and, when it holds nothing yet, its non-unique indexes (one sorted build
    /// beats a random insert per row) are dropped until the commit (``SQLiteSuspendedSchema``).
    public func willInsert(into table: String, rowCount: () throws -> Int) throws {
        guard writing, !localEdits, try rowCount() >= Self.bulkInsertRows else { return }
        try suspended.dropTriggers(SQLiteBaseCapture.insertTriggerNames(of: table), on: connection)
        try suspended.dropIndexesIfEmpty(table, on: connection)
    }

    public func setLocalEdits(_ local: Bool) throws {
        // Local edits are captured: what bulk inserts set aside comes back first.
        if local { try suspended.restore(on: connection) }
        localEdits = local
        guard local, ownWritesFlagged else { return }
        try connection.execute(SQLiteBaseCapture.clearOwnWrites)
        ownWritesFlagged = false
    }

    /// In a write transaction of rmap's own: puts the flag row in place once the file has its table
    /// (a new file gets it with the schema, after which the caller flags again).
    func flagOwnWrites() throws {
        guard writing, !localEdits, !ownWritesFlagged else { return }
        let exists = try connection.query(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.string(SQLiteBaseCapture.ownWrites)])
        guard !exists.isEmpty else { return }
        try connection.execute(SQLiteBaseCapture.setOwnWrites)
        ownWritesFlagged = true
    }

    private func endTransaction() {
        suspended.reset()
        writing = false
        localEdits = false
        ownWritesFlagged = false
    }
}
