/// An error reported by SQLite, with the statement that failed.
///
/// ```swift
/// do { try connection.execute("INSERT INTO people (id) VALUES (1)") } catch {
///     if error.code == .constraint { print("person 1 is already there") }
/// }
/// ```
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's result code as it returned it, e.g. 19 for a constraint violation
    /// (an extended code keeps its extra bits, e.g. 1555 for a primary key).
    public var resultCode: Int32
    /// SQLite's message.
    public var message: String
    /// The SQL being run, when there was one.
    public var sql: String?

    /// Creates an error from SQLite's result code.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.resultCode = code
        self.message = message
        self.sql = sql
    }

    /// The named primary code of ``resultCode`` (its low byte), e.g. ``Code/busy``;
    /// ``Code/error`` for a number SQLite does not document.
    public var code: Code { Code(rawValue: resultCode & 0xFF) ?? .error }

    /// The message, then the SQL.
    public var description: String {
        sql.map { "SQLite error \(resultCode): \(message) (in \($0))" } ?? "SQLite error \(resultCode): \(message)"
    }
}

extension SQLiteError {
    /// SQLite's primary result codes by name (<https://sqlite.org/rescode.html>); `rawValue` is the number.
    public enum Code: Int32, Sendable, CaseIterable {
        /// `SQLITE_ERROR`: a generic error, e.g. an SQL syntax error or a missing table.
        case error = 1
        /// `SQLITE_INTERNAL`: a bug inside SQLite.
        case `internal` = 2
        /// `SQLITE_PERM`: the access mode of a new database cannot be given.
        case permission = 3
        /// `SQLITE_ABORT`: an operation was aborted, e.g. by a rollback.
        case abort = 4
        /// `SQLITE_BUSY`: another connection holds the lock beyond the busy timeout.
        case busy = 5
        /// `SQLITE_LOCKED`: a conflict within the same connection or shared cache.
        case locked = 6
        /// `SQLITE_NOMEM`: out of memory.
        case noMemory = 7
        /// `SQLITE_READONLY`: a write to a read-only database.
        case readOnly = 8
        /// `SQLITE_INTERRUPT`: interrupted by `sqlite3_interrupt`.
        case interrupt = 9
        /// `SQLITE_IOERR`: the operating system reported an I/O error.
        case ioError = 10
        /// `SQLITE_CORRUPT`: the database file is damaged.
        case corrupt = 11
        /// `SQLITE_NOTFOUND`: an unknown file control opcode.
        case notFound = 12
        /// `SQLITE_FULL`: the disk is full.
        case full = 13
        /// `SQLITE_CANTOPEN`: the file cannot be opened.
        case cannotOpen = 14
        /// `SQLITE_PROTOCOL`: a problem with the file locking protocol.
        case `protocol` = 15
        /// `SQLITE_EMPTY`: not used by SQLite today.
        case empty = 16
        /// `SQLITE_SCHEMA`: the schema changed under a prepared statement.
        case schema = 17
        /// `SQLITE_TOOBIG`: a string or blob over the size limit.
        case tooBig = 18
        /// `SQLITE_CONSTRAINT`: a constraint (unique, not null, foreign key, check) was violated.
        case constraint = 19
        /// `SQLITE_MISMATCH`: a datatype mismatch.
        case mismatch = 20
        /// `SQLITE_MISUSE`: the library was used incorrectly.
        case misuse = 21
        /// `SQLITE_NOLFS`: large files are not supported by the host.
        case noLargeFileSupport = 22
        /// `SQLITE_AUTH`: an authorizer denied the statement.
        case authorization = 23
        /// `SQLITE_FORMAT`: not used by SQLite today.
        case format = 24
        /// `SQLITE_RANGE`: a parameter index out of range.
        case range = 25
        /// `SQLITE_NOTADB`: the file is not a database.
        case notADatabase = 26
        /// `SQLITE_NOTICE`: an unusual operation (logged only).
        case notice = 27
        /// `SQLITE_WARNING`: a warning (logged only).
        case warning = 28
    }
}
