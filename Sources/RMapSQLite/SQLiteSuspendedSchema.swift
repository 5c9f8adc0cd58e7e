import RMap

/// The triggers and indexes a write transaction drops while rmap bulk-inserts, to make again
/// from their text in the file before it commits (``SQLiteEngine``), and the indexes its own
/// schema changes create then (a new table's foreign keys, a new join table's destination); no
/// other connection writes meanwhile, and none ever sees them missing. No write reads by them.
///
/// - An insert trigger (an entity table's, a join table's) does nothing for rmap's own writes,
///   but even with a `WHEN` that is false it doubles the cost of an insert.
/// - The indexes of a join table that holds nothing when its first links come (a first
///   import) are built once, sorted, after the load instead of kept up to date link by link:
///   900,000 links took 0.3-0.7 s plus 0.7-1.5 s for the index against 1.9-2.6 s with it.
///
/// A rollback brings everything back by itself: dropping is part of the transaction.
struct SQLiteSuspendedSchema {
    /// What was dropped, in order: `TRIGGER` or `INDEX`, name and `CREATE` statement.
    private var dropped: [(kind: String, name: String, sql: String)] = []
    /// The `CREATE INDEX` statements of the transaction's schema changes, held back.
    private var postponed: [String] = []
    /// The triggers, and the tables at their first bulk insert, already looked for in the transaction.
    private var seenTriggers: Set<String> = []
    private var filledTables: Set<String> = []

    /// Drops the triggers of these names that the file holds, once a transaction.
    mutating func dropTriggers(_ names: [String], on connection: SQLiteConnection) throws {
        let wanted = names.filter { seenTriggers.insert($0).inserted }
        guard !wanted.isEmpty else { return }
        let placeholders = Array(repeating: "?", count: wanted.count).joined(separator: ", ")
        try drop(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (\(placeholders))",
            wanted.map(Value.string), kind: "TRIGGER", on: connection)
    }

    /// At the first bulk insert of the transaction into `table` (a join table's first links, an
    /// entity table's first rows): when it holds none, drops its indexes that do not enforce
    /// uniqueness.
    mutating func dropIndexesIfEmpty(_ table: String, on connection: SQLiteConnection) throws {
        guard filledTables.insert(table).inserted else { return }
        let name = SQLiteSchema.quote(table)
        guard try connection.query("SELECT EXISTS (SELECT 1 FROM \(name))").first?.first == .integer(0) else {
            return
        }
        try drop(
            "SELECT m.name, m.sql FROM pragma_index_list(?) AS l JOIN sqlite_master AS m ON m.name = l.name "
                + "WHERE m.type = 'index' AND l.\"unique\" = 0 AND m.sql IS NOT NULL",
            [.string(table)], kind: "INDEX", on: connection)
    }

    /// Holds back a schema change's statement when it is a `CREATE INDEX` inside a transaction, until
    /// ``restore(on:)``: one sorted build instead of an insert per row into a B-tree the rows reach
    /// in random order.
    ///
    /// - Returns: whether it was held back (the caller runs it otherwise).
    mutating func postpones(_ sql: String, on connection: SQLiteConnection) -> Bool {
        guard connection.inTransaction, sql.hasPrefix("CREATE INDEX ") else { return false }
        postponed.append(sql)
        return true
    }

    /// Makes everything dropped or held back (the indexes in one sorted pass each) and forgets it.
    mutating func restore(on connection: SQLiteConnection) throws {
        for sql in postponed { try connection.execute(sql) }
        for (kind, name, sql) in dropped {
            try connection.execute("DROP \(kind) IF EXISTS \(SQLiteSchema.quote(name)); \(sql)")
        }
        reset()
    }

    /// Forgets everything (the transaction is over).
    mutating func reset() {
        dropped = []
        postponed = []
        seenTriggers = []
        filledTables = []
    }

    private mutating func drop(_ query: String, _ parameters: [Value], kind: String, on connection: SQLiteConnection)
        throws
    {
        for row in try connection.query(query, parameters) {
            guard row.count == 2, case .text(let name) = row[0], case .text(let sql) = row[1] else { continue }
            try connection.execute("DROP \(kind) \(SQLiteSchema.quote(name))")
            dropped.append((kind, name, sql))
        }
    }
}
