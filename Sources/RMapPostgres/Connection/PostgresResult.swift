internal import CLibPQ

/// The rows a statement returned, as text, plus what the server said it did.
///
/// Values are in PostgreSQL's text format (`t`/`f` for booleans, ISO dates);
/// SQL NULL is `nil`.
///
/// ```swift
/// let result = try connection.query("SELECT id, name FROM people WHERE id = $1", ["7"])
/// result.columns  // ["id", "name"]
/// result.rows     // [["7", "Ada"]]
/// ```
public struct PostgresResult: Sendable, Equatable {
    /// The column names, in order.
    public var columns: [String]
    /// The rows, each with one value per column.
    public var rows: [[String?]]
    /// The command tag, such as `SELECT 1`, `INSERT 0 3` or `COMMIT`.
    public var commandTag: String
    /// The number of rows inserted, updated, deleted, copied or selected,
    /// when the command reports one.
    public var affectedRows: Int?

    /// Creates a result.
    public init(columns: [String], rows: [[String?]], commandTag: String, affectedRows: Int?) {
        self.columns = columns
        self.rows = rows
        self.commandTag = commandTag
        self.affectedRows = affectedRows
    }

    /// Copies everything out of a libpq result (which the caller still owns).
    init(copying result: OpaquePointer) {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        rows = (0..<rowCount).map { row in
            (0..<columnCount).map { column in
                guard PQgetisnull(result, row, column) == 0 else { return nil }
                let bytes = UnsafeRawBufferPointer(
                    start: PQgetvalue(result, row, column),
                    count: Int(PQgetlength(result, row, column))
                )
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        commandTag = String(cString: PQcmdStatus(result))
        affectedRows = Int(String(cString: PQcmdTuples(result)))
    }
}
