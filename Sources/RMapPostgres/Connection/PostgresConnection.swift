internal import CLibPQ
import Foundation
import RMap

/// One open connection to a PostgreSQL server, through libpq.
///
/// The connection owns its libpq handle and closes it when released. It is
/// not `Sendable`: use it from one task at a time, behind an actor or a
/// lock when several tasks share it. Server notices (warnings, `NOTICE`
/// from `CREATE TABLE IF NOT EXISTS`) are dropped.
///
/// ```swift
/// let connection = try PostgresConnection(url: "postgres://rmap@127.0.0.1:5432/crm")
/// try connection.execute("CREATE TABLE people (id int PRIMARY KEY, name text)")
/// try connection.query("INSERT INTO people VALUES ($1, $2)", ["1", "Ada"])
/// ```
public final class PostgresConnection {
    let handle: OpaquePointer
    /// Hides the connection string's password in messages.
    let redactor: Redactor
    var savepointDepth = 0

    /// Where this connection goes, for messages.
    public let endpoint: PostgresEndpoint

    /// Connects to the server a libpq connection string names.
    ///
    /// - Parameter url: A URI (`postgres://user:password@host:port/database`)
    ///   or key/value string (`host=… dbname=…`), as libpq accepts it.
    /// - Throws: ``PostgresError`` with operation `.connect` naming host, port
    ///   and database and carrying libpq's reason, without the password.
    public init(url: String) throws(PostgresError) {
        let options = ConnectionOptions(parsing: url)
        redactor = Redactor(conninfo: url, options: options)
        // PQconnectdb never returns NULL short of running out of memory.
        let handle = PQconnectdb(url)!
        self.handle = handle
        endpoint = PostgresEndpoint(
            host: Self.text(PQhost(handle)) ?? options.value(for: "host") ?? "(default host)",
            port: Self.text(PQport(handle)) ?? options.value(for: "port") ?? "5432",
            database: Self.text(PQdb(handle)) ?? options.value(for: "dbname") ?? "(default database)",
            user: Self.text(PQuser(handle)) ?? options.value(for: "user") ?? "(default user)"
        )
        guard PQstatus(handle) == CONNECTION_OK else {
            throw error(.connect, message: lastErrorMessage)
        }
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        guard PQsetClientEncoding(handle, "UTF8") == 0 else {
            throw error(.connect, message: lastErrorMessage)
        }
    }

    deinit {
        PQfinish(handle)
    }

    /// The server's version as one number: `150018` for 15.18, `90624` for 9.6.24.
    public var serverVersion: Int {
        Int(PQserverVersion(handle))
    }

    /// Runs one or more SQL statements separated by semicolons, without parameters.
    ///
    /// - Throws: ``PostgresError`` with operation `.execute`; when several
    ///   statements were given, those before the failing one have run (unless
    ///   the connection is inside a transaction).
    public func execute(_ sql: String) throws(PostgresError) {
        _ = try run(.execute) { PQexec(handle, sql) }
    }

    /// Runs one statement with `$1`, `$2`, … parameters sent separately from
    /// the SQL text, and returns its rows.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement.
    ///   - params: The parameters in text format; `nil` is SQL NULL.
    /// - Throws: ``PostgresError`` with operation `.query`.
    @discardableResult
    public func query(_ sql: String, _ params: [String?] = []) throws(PostgresError) -> PostgresResult {
        let parameters = try PostgresParameters(params, for: .query, on: self)
        return try run(.query) {
            parameters.withPointers { PQexecParams(handle, sql, parameters.count, nil, $0, nil, nil, 0) }
        }
    }

    /// Parses and plans a statement once, under a name, for
    /// ``executePrepared(name:params:)`` to run many times.
    ///
    /// - Throws: ``PostgresError`` with operation `.prepare(name)`, for example
    ///   SQLSTATE `42P05` when the name is taken on this connection.
    public func prepare(name: String, sql: String) throws(PostgresError) {
        _ = try run(.prepare(name)) { PQprepare(handle, name, sql, 0, nil) }
    }

    /// Runs a statement prepared with ``prepare(name:sql:)``.
    ///
    /// - Parameters:
    ///   - name: The name given to ``prepare(name:sql:)``.
    ///   - params: The parameters in text format; `nil` is SQL NULL.
    /// - Throws: ``PostgresError`` with operation `.executePrepared(name)`.
    @discardableResult
    public func executePrepared(name: String, params: [String?]) throws(PostgresError) -> PostgresResult {
        let parameters = try PostgresParameters(params, for: .executePrepared(name), on: self)
        return try run(.executePrepared(name)) {
            parameters.withPointers { PQexecPrepared(handle, name, parameters.count, $0, nil, nil, 0) }
        }
    }

    // MARK: - COPY … FROM STDIN

    /// Loads rows with `COPY … FROM STDIN`, the fastest way into a table.
    ///
    /// Rows are encoded in COPY's text format (any text round-trips exactly,
    /// `nil` is NULL) and sent in chunks of 32 KiB, so `rows` may be a lazy
    /// sequence of any length.
    ///
    /// ```swift
    /// try connection.copyIn(
    ///     "COPY people (id, name) FROM STDIN",
    ///     rows: [["1", "Ada"], ["2", nil]]
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - sql: A `COPY table [(columns)] FROM STDIN` statement in text format
    ///     (the default; no `FORMAT csv` or `binary`).
    ///   - rows: The rows, each with one value per copied column.
    /// - Returns: The number of rows the server stored.
    /// - Throws: ``PostgresError`` with operation `.copy` when the statement is
    ///   not such a COPY, a row has the wrong number of values, or the server
    ///   rejects the data; nothing is stored then.
    /// - Complexity: O(total size of the rows); memory stays at one chunk.
    @discardableResult
    public func copyIn(_ sql: String, rows: some Sequence<[String?]>) throws(PostgresError) -> Int {
        try PostgresCopyIn(connection: self).load(sql, rows: rows, width: \.count) { $1.append($0) }
    }

    // MARK: - Names

    /// `name` as an SQL identifier: wrapped in double quotes, inner double
    /// quotes doubled, so any table or column name is safe to splice into SQL.
    ///
    /// ```swift
    /// PostgresConnection.quoteIdentifier(#"team "A""#)  // "team ""A"""
    /// ```
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }
}

@available(*, unavailable, message: "a PostgresConnection belongs to one task at a time")
extension PostgresConnection: Sendable {}
