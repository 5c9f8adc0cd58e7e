public import RMap

/// The ``SQLEngine`` of the `postgres` store: rmap's statements on one ``PostgresConnection``.
///
/// Parameters go in PostgreSQL's text format (``PostgresValueText``), each `?` numbered
/// `$1`, `$2`, … (``PostgresPlaceholders``, the rewritten text cached by statement). Results
/// stream in libpq's single-row mode: a query of any size holds one row at a time (on a million
/// rows it was also faster than a cursor fetched 10,000 rows at a time, docs/performance-log.md).
/// Many rows go in with `COPY ... FROM STDIN`, a few with one multi-row `INSERT`.
///
/// A write transaction takes the advisory lock that makes two runs on one schema take turns
/// and flags its writes as rmap's own, which the base capture's triggers leave alone
/// (``PostgresBaseCapture``); a read transaction is a `REPEATABLE READ READ ONLY` snapshot.
/// DDL is transactional: a rollback leaves the store as before, schema included.
///
/// ```swift
/// let engine = try PostgresEngine(connection: PostgresConnection(url: "postgres://rmap@127.0.0.1/crm"))
/// try engine.query("SELECT id, email FROM people WHERE city = ?", [.string("Oslo")], types: [.int, .string]) {
///     print($0)
/// }
/// ```
public final class PostgresEngine: SQLEngine {
    /// The connection statements run on.
    public let connection: PostgresConnection
    /// The indexes of the transaction's new tables, built once their rows are in.
    private let laterIndexes: LaterIndexes
    /// Statements as PostgreSQL takes them, by their text with `?`.
    private var numbered: [String: String] = [:]
    /// Whether the open transaction writes (its commit passes the ``CommitGate``).
    private var writing = false
    /// The tables whose triggers are off for a bulk insert (``willInsert(into:rowCount:)``).
    private var bulkInserts: Set<String> = []
    /// Rows from which ``willInsert(into:rowCount:)`` sets a new table's unique constraints aside.
    public static let bulkInsertRows = 10_000
    /// How many rewritten statements are kept: far more than a run's distinct statements, so that
    /// the cache never grows with the input.
    private static let cachedStatements = 1024
    /// Rows from which ``insert(into:columns:rows:)`` goes through `COPY`.
    static let copyThreshold = 64
    /// PostgreSQL's limit on the parameters of one statement.
    private static let maximumParameters = 65535

    /// PostgreSQL's dialect.
    public var dialect: any SQLDialect.Type { PostgresSchema.self }

    /// Takes over a connection: sets the session's time zone, date style and float output, under
    /// which values are read back.
    ///
    /// - Throws: ``PostgresError``.
    public init(connection: PostgresConnection) throws {
        self.connection = connection
        laterIndexes = LaterIndexes(connection: connection)
        try connection.execute(
            [PostgresSession.settings, Self.memoryForJoins, Self.statisticsSample].joined(separator: "; "))
    }

    /// The memory each hash join and sort of a run's statements may take in the server before it
    /// spills to disk (PostgreSQL's default is 4 MB): the merge's joins go over every staged row,
    /// and a million of them took 2.9 s to anti-join in 64 MB, 3.9 s in 4 MB.
    static let memoryForJoins = "SET work_mem TO '64MB'"

    /// How much of a run's temporary table `ANALYZE` samples (``SQLDialect/statistics(of:)``): 3,000
    /// rows, not the server's default of 30,000. The run's statements need row counts and whether
    /// a key repeats, which the smaller sample gives as well, in 15-20 ms a table of a million
    /// rows instead of 120-130 ms (seven tables a run of `scripts/bench`'s flat data). rmap
    /// analyzes no other table; autovacuum keeps the server's own setting.
    static let statisticsSample = "SET default_statistics_target TO 10"

    @discardableResult
    public func execute(_ sql: String, _ parameters: [Value]) throws -> Int {
        let text = statement(sql)
        do {
            return try connection.query(text, parameters.map(PostgresValueText.encode)).affectedRows ?? 0
        } catch {
            throw naming(error, text)
        }
    }

    public func query(
        _ sql: String, _ parameters: [Value], types: [AttributeType], row: ([Value]) throws -> Void
    ) throws {
        let text = statement(sql)
        var values: [Value] = []
        do {
            let rows = PostgresRowStream(connection: connection)
            try rows.stream(text, parameters.map(PostgresValueText.encode)) { result in
                let width = result.count
                if values.count != width { values = Array(repeating: .null, count: width) }
                for column in 0..<width {
                    values[column] = PostgresValueText.decode(
                        result.text(column), as: column < types.count ? types[column] : .string)
                }
                try row(values)
            }
        } catch let error as PostgresError {
            throw naming(error, text)
        }
    }

    /// `COPY ... FROM STDIN` from ``copyThreshold`` rows, in 32 KiB chunks; fewer rows in one
    /// multi-row `INSERT`, each parameter cast to its column's type (a `VALUES` list of untyped
    /// parameters would be text).
    public func insert(into table: String, columns: [ColumnLayout], rows: some Collection<[Value]>) throws {
        guard !rows.isEmpty else { return }
        let names = PostgresSchema.list(columns.map(\.name))
        if rows.count >= Self.copyThreshold {
            let sql = "COPY \(PostgresSchema.quote(table)) (\(names)) FROM STDIN"
            do {
                try PostgresCopyIn(connection: connection).load(sql, rows: Array(rows), width: \.count) {
                    $1.append(values: $0)
                }
            } catch {
                throw naming(error, sql)
            }
            return
        }
        let group = max(1, Self.maximumParameters / max(1, columns.count))
        var pending = ArraySlice(rows)
        while !pending.isEmpty {
            let chunk = pending.prefix(group)
            pending = pending.dropFirst(chunk.count)
            var placeholders: [String] = []
            var number = 0
            for _ in chunk {
                let row = columns.map { column -> String in
                    number += 1
                    return "$\(number)::\(PostgresSchema.columnType(column.type))"
                }
                placeholders.append("(" + row.joined(separator: ", ") + ")")
            }
            let sql =
                "INSERT INTO \(PostgresSchema.quote(table)) (\(names)) VALUES \(placeholders.joined(separator: ", "))"
            do {
                try connection.query(sql, chunk.flatMap { $0.map(PostgresValueText.encode) })
            } catch {
                throw naming(error, sql)
            }
        }
    }

    public func begin(_ kind: SQLTransactionKind) throws {
        laterIndexes.reset()
        bulkInserts.removeAll()
        try connection.execute(kind == .write ? PostgresSession.beginWrite : PostgresSession.beginRead)
        writing = kind == .write
    }

    /// Puts back what a bulk insert set aside and builds the indexes of the transaction's new
    /// tables first (``create(_:)``); a write commits through the ``CommitGate`` (an interruption
    /// then tells whether it landed).
    public func commit() throws {
        for table in bulkInserts.sorted() { try didInsert(into: table) }
        try laterIndexes.buildAll()
        if writing {
            try CommitGate.commit { try PostgresSession.commit(on: connection) }
        } else {
            try PostgresSession.commit(on: connection)
        }
        writing = false
    }

    public func rollback() {
        laterIndexes.reset()
        bulkInserts.removeAll()
        if connection.inTransaction { try? connection.execute("ROLLBACK") }
    }

    /// Sets aside, for a table the transaction made, when `rowCount` rows or more go in, until
    /// ``didInsert(into:)``: its unique constraints (``LaterIndexes/setAsideUniqueKeys(of:)``)
    /// and its triggers. A table made in the transaction has no triggers but rmap's base capture,
    /// which rmap's own writes do not fire, but whose condition PostgreSQL evaluates for each row
    /// (a million tasks: 0.83 s with the trigger, 0.66 s without).
    public func willInsert(into table: String, rowCount: () throws -> Int) throws {
        guard laterIndexes.made(table), !bulkInserts.contains(table), try rowCount() >= Self.bulkInsertRows else {
            return
        }
        try laterIndexes.setAsideUniqueKeys(of: table)
        try connection.execute("ALTER TABLE \(PostgresSchema.quote(table)) DISABLE TRIGGER USER")
        bulkInserts.insert(table)
    }

    /// Turns the triggers set aside for the insert on again and builds its unique constraints,
    /// one sorted build each.
    public func didInsert(into table: String) throws {
        guard bulkInserts.remove(table) != nil else { return }
        try connection.execute("ALTER TABLE \(PostgresSchema.quote(table)) ENABLE TRIGGER USER")
        try laterIndexes.restoreUniqueKeys(of: table)
    }

    /// The tables and columns now, the indexes of new tables at commit, once their rows are in
    /// (``LaterIndexes``: one sorted build each; a first import of `scripts/bench`'s flat data
    /// into a table with its indexes took 6.2 s for a million tasks, 3.6 s with them built after).
    public func create(_ diff: SchemaDiff) throws {
        try laterIndexes.create(diff)
    }

    /// The connection's temporary table of that name, else the current schema's.
    public func columns(of table: String) throws -> [String] {
        try PostgresCatalog(connection: connection).orderedColumns(of: table)
    }

    /// The functions and triggers of ``PostgresBaseCapture`` and the tables of identities created
    /// locally that the schema lacks for `layout`, in one round trip.
    public func ensureCapture(_ layout: StoreLayout) throws {
        let statements = try PostgresCatalog(connection: connection).captureStatements(layout)
        guard !statements.isEmpty else { return }
        try connection.execute(statements.joined(separator: ";\n"))
    }

    public func holdsCapture(_ layout: StoreLayout) throws -> Bool {
        try PostgresCatalog(connection: connection).captureStatements(layout).isEmpty
    }

    public func setLocalEdits(_ local: Bool) throws {
        try connection.execute(PostgresBaseCapture.setOwnWrites(!local))
    }

    // MARK: - Statements

    /// `sql` with numbered parameters, rewritten once.
    private func statement(_ sql: String) -> String {
        if let text = numbered[sql] { return text }
        if numbered.count >= Self.cachedStatements { numbered.removeAll(keepingCapacity: true) }
        let text = PostgresPlaceholders.numbered(sql)
        numbered[sql] = text
        return text
    }

    /// The error with the statement that failed.
    private func naming(_ error: PostgresError, _ sql: String) -> PostgresError {
        var named = error
        named.statement = sql
        return named
    }
}
