/// An error reported by SQLite, with the statement that failed.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's result code, e.g. 19 for a constraint violation.
    public var code: Int32
    /// SQLite's message.
    public var message: String
    /// The SQL being run, when there was one.
    public var sql: String?

    /// Creates an error.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The message, then the SQL.
    public var description: String {
        sql.map { "SQLite error \(code): \(message) (in \($0))" } ?? "SQLite error \(code): \(message)"
    }
}
