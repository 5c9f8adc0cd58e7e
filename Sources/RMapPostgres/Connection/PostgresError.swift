/// A PostgreSQL operation that failed: what was attempted, where, and why.
///
/// The description is one sentence a person can act on, for example
/// `PostgreSQL query failed with SQLSTATE 42P01 on database "crm" on
/// 127.0.0.1:5432 as user "rmap": relation "people" does not exist`.
/// Neither the description nor any property ever holds the connection's
/// password: it is removed from libpq's and the server's messages.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of operation that failed.
    public enum Operation: Sendable, Equatable {
        /// Opening the connection.
        case connect
        /// ``PostgresConnection/execute(_:)``.
        case execute
        /// ``PostgresConnection/query(_:_:)``.
        case query
        /// ``PostgresConnection/prepare(name:sql:)`` of the named statement.
        case prepare(String)
        /// ``PostgresConnection/executePrepared(name:params:)`` of the named statement.
        case executePrepared(String)
        /// ``PostgresConnection/copyIn(_:rows:)``.
        case copy
        /// Beginning, committing or rolling back in ``PostgresConnection/transaction(_:)``.
        case transaction
    }

    /// What was attempted.
    public var operation: Operation
    /// The server's or libpq's message, password removed.
    public var message: String
    /// The five-character SQLSTATE code when the server sent one (`42601`, `23505`).
    public var sqlState: String?
    /// The server's DETAIL line, if any.
    public var detail: String?
    /// The server's HINT line, if any.
    public var hint: String?
    /// Where the connection goes.
    public var endpoint: PostgresEndpoint
    /// The statement that failed, when the caller named it (``PostgresEngine`` does).
    public var statement: String?

    /// Creates an error.
    public init(
        operation: Operation,
        message: String,
        sqlState: String? = nil,
        detail: String? = nil,
        hint: String? = nil,
        endpoint: PostgresEndpoint
    ) {
        self.operation = operation
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.hint = hint
        self.endpoint = endpoint
    }

    /// `PostgreSQL <what> failed[ with SQLSTATE x] on <endpoint>: <message>[ (detail: …)][ (hint: …)][ (in <statement>)]`.
    public var description: String {
        var text = "PostgreSQL \(attempt)"
        if let sqlState {
            text += " with SQLSTATE \(sqlState)"
        }
        text += " on \(endpoint): \(message)"
        if let detail {
            text += " (detail: \(detail))"
        }
        if let hint {
            text += " (hint: \(hint))"
        }
        if let statement {
            text += " (in \(statement))"
        }
        return text
    }

    private var attempt: String {
        switch operation {
        case .connect: "connection failed"
        case .execute: "statement failed"
        case .query: "query failed"
        case .prepare(let name): "preparing statement \"\(name)\" failed"
        case .executePrepared(let name): "prepared statement \"\(name)\" failed"
        case .copy: "COPY failed"
        case .transaction: "transaction failed"
        }
    }
}
