/// A connection to an SQL engine: what the run, the sync API and the readers drive.
///
/// rmap writes its SQL once, in core, and an engine runs it: the run's staging,
/// connecting and merging (docs/architecture.md, "Data flow"), `diff`, `push` and
/// the library's reads. An engine differs from another only in its ``dialect``
/// (how a statement is spelled) and in how it loads many rows at once. Values
/// travel as ``Value``s in the stored forms of docs/mapping.md ("Types"): an
/// engine binds each case as its column type stores it and reads a column back
/// as the case of the ``AttributeType`` asked for.
///
/// Statements use `?` for parameters, in order; an engine whose own placeholders
/// differ (PostgreSQL's `$1`) rewrites them, leaving quoted names and literals alone.
///
/// An engine is one connection, used from one thread at a time; it is not `Sendable`.
///
/// ```swift
/// try engine.begin(.write)
/// try engine.execute("UPDATE people SET email = ? WHERE id = ?", [.string("ada@x"), .int(1)])
/// try engine.query("SELECT id, email FROM people", types: [.int, .string]) { row in print(row) }
/// try engine.commit()
/// ```
public protocol SQLEngine: AnyObject {
    /// How this engine spells SQL.
    var dialect: any SQLDialect.Type { get }

    /// Runs one statement.
    ///
    /// - Returns: how many rows it inserted, updated or deleted.
    /// - Throws: the engine's error, naming the statement.
    @discardableResult
    func execute(_ sql: String, _ parameters: [Value]) throws -> Int

    /// Runs a query and calls `row` with each result row, its columns read as `types` says
    /// (a column beyond `types` reads as `.string`), as the engine streams them.
    ///
    /// - Throws: the engine's error, or what `row` throws (the query is then ended).
    func query(_ sql: String, _ parameters: [Value], types: [AttributeType], row: ([Value]) throws -> Void) throws

    /// Inserts rows into a table, as fast as the engine can: a prepared multi-row `INSERT`,
    /// `COPY`, ... Each row has a value per column, in order.
    func insert(into table: String, columns: [ColumnLayout], rows: some Collection<[Value]>) throws

    /// Runs a statement over many rows, in order: `statement` makes it around a `VALUES` list of
    /// rows of `width` parameters each (`VALUES (?, ?), (?, ?)`), and the engine binds as many
    /// rows to one statement as it likes. The default runs one statement per row.
    func execute(rows: [[Value]], width: Int, statement: (String) -> String) throws

    /// Starts a transaction.
    func begin(_ kind: SQLTransactionKind) throws
    /// Makes everything since ``begin(_:)`` durable.
    func commit() throws
    /// Undoes everything since ``begin(_:)``; does nothing outside a transaction.
    func rollback()

    /// The columns of a table, in order; empty when the engine has no such table.
    func columns(of table: String) throws -> [String]

    /// Creates the tables and columns a schema change adds. The default runs its statements in
    /// order; an engine may build the indexes of the tables it creates later in the transaction,
    /// once their rows are in (before ``commit()``), when a sorted build is faster than an insert
    /// per row. Called in a write transaction.
    func create(_ diff: SchemaDiff) throws

    /// Makes sure the store's base capture covers `layout`'s tables: whatever records a row's
    /// server state at its first local edit (SQLite's triggers, PostgreSQL's trigger functions)
    /// and the tables of identities created locally (``TableLayout/insertedName``). Called in a
    /// write transaction, after the tables exist.
    func ensureCapture(_ layout: StoreLayout) throws
    /// True when the base capture covers `layout` already, found by reading only.
    func holdsCapture(_ layout: StoreLayout) throws -> Bool

    /// Says that rows are about to go into `table`, in rmap's own write transaction, as many as
    /// `rowCount` counts (an engine that cares calls it: it may take a pass over the rows): an
    /// engine may set aside until ``commit()`` what makes each insert dear (SQLite's insert
    /// triggers, and the indexes of a table that holds nothing yet). The default does nothing.
    func willInsert(into table: String, rowCount: () throws -> Int) throws
    /// Says that the rows announced by ``willInsert(into:rowCount:)`` are in `table`: an engine
    /// puts back now what the statements after them need (PostgreSQL: a new table's unique
    /// identity and triggers). The default does nothing.
    func didInsert(into table: String) throws

    /// Whether the writes that follow, until the transaction ends or the next call, are local
    /// edits (the library's, which the store's base capture records) or rmap's own writes of
    /// the server's state (which it leaves alone). A write transaction starts with rmap's own.
    func setLocalEdits(_ local: Bool) throws
}

/// What a transaction may do.
public enum SQLTransactionKind: Sendable {
    /// Reads and writes; writers take turns (SQLite's `BEGIN IMMEDIATE`, PostgreSQL's advisory lock).
    case write
    /// Reads one consistent state and never waits for a writer.
    case read
}

extension SQLEngine {
    /// Runs the change's statements, in order.
    public func create(_ diff: SchemaDiff) throws {
        for sql in try diff.statements(dialect) { try execute(sql) }
    }

    /// One statement per row.
    public func execute(rows: [[Value]], width: Int, statement: (String) -> String) throws {
        let sql = statement("VALUES (" + Array(repeating: "?", count: width).joined(separator: ", ") + ")")
        for row in rows { try execute(sql, row) }
    }

    /// Gathers the planner's statistics of a run's temporary table once filled, where the
    /// dialect asks for them (``SQLDialect/statistics(of:)``).
    public func gatherStatistics(of table: String) throws {
        if let sql = dialect.statistics(of: table) { try execute(sql) }
    }

    /// Does nothing: the engine keeps its indexes and triggers up to date row by row.
    public func willInsert(into table: String, rowCount: () throws -> Int) throws {}

    /// Does nothing: nothing was set aside.
    public func didInsert(into table: String) throws {}

    /// Runs one statement without parameters.
    @discardableResult
    public func execute(_ sql: String) throws -> Int {
        try execute(sql, [])
    }

    /// The rows of a query, read as `types` says: for results known to be small.
    public func rows(_ sql: String, _ parameters: [Value] = [], types: [AttributeType]) throws -> [[Value]] {
        var rows: [[Value]] = []
        try query(sql, parameters, types: types) { rows.append($0) }
        return rows
    }

    /// The first column of the first row, or `nil` when the query has none.
    public func scalar(_ sql: String, _ parameters: [Value] = [], type: AttributeType) throws -> Value? {
        var first: Value?
        try query(sql, parameters, types: [type]) { row in
            if first == nil { first = row.first }
        }
        return first
    }

    /// The first column of the first row as a whole number (0 when none, or null).
    public func count(_ sql: String, _ parameters: [Value] = []) throws -> Int {
        guard case .int(let number)? = try scalar(sql, parameters, type: .int) else { return 0 }
        return Int(number)
    }

    /// Whether the query `sql` (a `SELECT`) returns a row. Asked as a whole number, since engines
    /// spell a truth value differently (SQLite's `1`, PostgreSQL's `t`).
    public func exists(_ sql: String, _ parameters: [Value] = []) throws -> Bool {
        try count("SELECT CASE WHEN EXISTS (\(sql)) THEN 1 ELSE 0 END", parameters) > 0
    }

    /// Runs `body` in a transaction: committed when `commit` is true and `body` returns,
    /// rolled back otherwise (and on any throw, which is rethrown).
    public func transaction<Result>(
        _ kind: SQLTransactionKind = .write, commit: Bool = true, _ body: () throws -> Result
    ) throws -> Result {
        try begin(kind)
        do {
            let result = try body()
            if commit { try self.commit() } else { rollback() }
            return result
        } catch {
            rollback()
            throw error
        }
    }
}
