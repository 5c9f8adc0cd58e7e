internal import CLibPQ

/// Runs statements on a connection whose results are read row by row as the server sends them
/// (libpq's single-row mode), so that a result of any size is never held whole.
///
/// ```swift
/// try PostgresRowStream(connection: connection).stream("SELECT id FROM people", []) { print($0.text(0) ?? "NULL") }
/// ```
struct PostgresRowStream {
    /// The connection the statements run on.
    let connection: PostgresConnection

    /// Runs one statement with `$1`, `$2`, … parameters and hands each result row to `row` as
    /// the server sends it (libpq's single-row mode), so that a result of any size is never held
    /// whole. A row is valid only during its call.
    ///
    /// ```swift
    /// try PostgresRowStream(connection: connection).stream("SELECT id, name FROM people WHERE id > $1", ["7"]) { row in
    ///     print(row.text(0) ?? "NULL", row.text(1) ?? "NULL")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sql: One SQL statement.
    ///   - params: The parameters in text format; `nil` is SQL NULL.
    ///   - row: Called with each row, in order.
    /// - Returns: The rows the statement inserted, updated, deleted or selected.
    /// - Throws: ``PostgresError`` with operation `.query` when the server fails the statement
    ///   (rows sent before the failure have been handed over); what `row` throws, once the rest of
    ///   the result has been read and dropped, so the connection stays usable.
    @discardableResult
    func stream(_ sql: String, _ params: [String?], row: (PostgresRow) throws -> Void) throws -> Int {
        let parameters = try PostgresParameters(params, for: .query, on: connection)
        let sent = parameters.withPointers {
            PQsendQueryParams(connection.handle, sql, parameters.count, nil, $0, nil, nil, 0)
        }
        guard sent == 1 else { throw connection.error(.query, message: connection.lastErrorMessage) }
        _ = PQsetSingleRowMode(connection.handle)
        var failure: (any Error)?
        var affected = 0
        while let result = PQgetResult(connection.handle) {
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_SINGLE_TUPLE:
                guard failure == nil else { continue }
                do { try row(PostgresRow(result: result, index: 0)) } catch { failure = error }
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                affected = Int(String(cString: PQcmdTuples(result))) ?? 0
            case let status where status == PGRES_COPY_IN || status == PGRES_COPY_OUT:
                connection.abandonCopy(status)
                failure = failure ?? connection.error(.query, message: "COPY goes through copyIn(_:rows:), not a query")
            default:
                if failure == nil { failure = connection.error(.query, result: result) }
            }
        }
        if let failure { throw failure }
        return affected
    }
}

/// One row of a result, read in place from libpq's buffers: valid only during the call it is
/// handed to.
struct PostgresRow {
    let result: OpaquePointer
    let index: Int32

    /// How many columns the row has.
    var count: Int { Int(PQnfields(result)) }

    /// The column's value in PostgreSQL's text format; `nil` for SQL NULL.
    func text(_ column: Int) -> String? {
        let column = Int32(column)
        guard PQgetisnull(result, index, column) == 0 else { return nil }
        let bytes = UnsafeRawBufferPointer(
            start: PQgetvalue(result, index, column), count: Int(PQgetlength(result, index, column)))
        return String(decoding: bytes, as: UTF8.self)
    }
}
