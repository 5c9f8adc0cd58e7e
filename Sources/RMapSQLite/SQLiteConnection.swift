internal import CSQLite
public import RMap

/// One connection to an SQLite database file (or `:memory:`).
///
/// Owns its `sqlite3` handle and closes it in `deinit`; prepared statements
/// are cached by their SQL (at most ``cachedStatementLimit``). Not `Sendable`: use it from one task at a time.
///
/// ```swift
/// let connection = try SQLiteConnection(path: "rmap.sqlite")
/// let rows = try connection.query("SELECT typeof(budget), budget FROM projects")
/// ```
public final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// The database's path.
    public let path: String
    /// How long a statement waits for another connection's lock before it fails.
    public let busyTimeout: Duration
    /// The form of the database its transactions keep up to date besides it (the `json` store's document).
    var mirror: (any SQLiteMirror)?

    /// Opens (creating when absent) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: the file, or `:memory:`.
    ///   - busyTimeout: how long to wait for another connection's lock (default 5 s); a
    ///     statement still locked out then fails with ``SQLiteError`` code 5 (`SQLITE_BUSY`)
    ///     and a message that names the wait.
    /// - Throws: ``SQLiteError`` when the file cannot be opened, or its path holds a NUL character
    ///   (the C library would open the path cut there).
    public init(path: String, busyTimeout: Duration = .seconds(5)) throws {
        guard !path.utf8.contains(0) else {
            let shown = path.replacingOccurrences(of: "\0", with: "\\0")
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot open '\(shown)': the path holds a NUL character")
        }
        var database: OpaquePointer?
        // No per-connection mutex (multi-thread mode): the connection is used from one task at a time.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &database, flags, nil)
        guard code == SQLITE_OK, let database else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(database)
            throw SQLiteError(code: code, message: "cannot open '\(path)': \(message)")
        }
        handle = database
        self.path = path
        self.busyTimeout = busyTimeout
        let (seconds, attoseconds) = busyTimeout.components
        sqlite3_busy_timeout(database, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without parameters.
    ///
    /// - Throws: ``SQLiteError``.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            var text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            if code == SQLITE_BUSY {
                text +=
                    " (another connection held its lock for longer than the busy timeout, \(busyTimeout); "
                    + "raise the store's 'busy_timeout' or try again)"
            }
            throw SQLiteError(code: code, message: text, sql: sql)
        }
    }

    /// Runs a query and returns its rows in their storage classes.
    ///
    /// - Parameters:
    ///   - sql: one statement, with `?` parameters.
    ///   - parameters: the parameters' values, in their stored forms.
    /// - Throws: ``SQLiteError``.
    public func query(_ sql: String, _ parameters: [Value] = []) throws -> [[SQLiteValue]] {
        let statement = try self.statement(sql)
        statement.bind(parameters)
        var rows: [[SQLiteValue]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.raw($0) })
        }
        return rows
    }

    /// The most statements kept prepared. Every schema change walks all of a connection's
    /// statements, so with a statement per table kept, a run over thousands of tables that
    /// creates a temporary table per table was quadratic in them.
    static let cachedStatementLimit = 256

    /// The cached prepared statement for `sql`. A full cache is emptied first: the statements
    /// still in use stay alive with their users, the others are prepared again when needed.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try SQLiteStatement(database: handle, sql: sql)
        if statements.count >= Self.cachedStatementLimit { statements.removeAll(keepingCapacity: true) }
        statements[sql] = statement
        return statement
    }

    /// Rows of `width` values a multi-row `INSERT` takes: 32, fewer when that many values
    /// would pass the connection's limit on parameters.
    func rowsPerInsert(width: Int) -> Int {
        let parameters = Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        return max(1, min(32, parameters / max(1, width)))
    }

    /// True while a transaction is open.
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// How many rows the last statement inserted, updated or deleted.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Registers a deterministic SQL function of `arguments` arguments, implemented in C.
    func register(
        function name: String, arguments: Int32,
        _ body: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void
    ) throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            handle, name, arguments, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, body, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(
                code: code,
                message: "cannot register the SQL function \(name): " + String(cString: sqlite3_errmsg(handle)))
        }
    }
}
