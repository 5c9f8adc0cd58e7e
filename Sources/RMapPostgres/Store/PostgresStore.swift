public import RMap

/// The `postgres` store: the graph in a PostgreSQL database (or any
/// PostgreSQL-wire engine), one table per root entity, with the base in
/// `_rmap_base_<table>` tables, in the connection's current schema.
///
/// Each write is one transaction: a failed write leaves every table as
/// before. Stored forms follow MAPPING.md §5: `bigint`, `double precision`,
/// `numeric` (decimals keep the digits received, `12.50`), `boolean`,
/// `date`, `timestamptz` (read back in UTC, to the millisecond), `uuid`,
/// `text`, and `jsonb` for arrays and JSON. Large batches are loaded with
/// `COPY`. The session runs with `TimeZone` UTC and `DateStyle` ISO.
///
/// ```swift
/// let store = try PostgresStore(url: "postgres://rmap@db.internal/crm", settings: ["sslmode": "verify-full"])
/// let people = try await StoreReader(store: store, model: model).objects(of: "CRMPerson").fetchAll()
/// ```
public final class PostgresStore: Store {
    /// The connection the store writes with.
    public let connection: PostgresConnection
    private let sqlEngine: PostgresEngine

    /// The engine over the store's connection.
    public func engine() throws -> any SQLEngine { sqlEngine }

    /// Connects to the database `url` names.
    ///
    /// - Parameters:
    ///   - url: A libpq URI (`postgres://user:password@host:port/database?sslmode=require`)
    ///     or key/value string. Put `options=-csearch_path%3Dname` in a URI to use another schema.
    ///   - settings: More libpq parameters, such as `sslmode`, `sslrootcert`, `sslcert` and `sslkey`.
    /// - Throws: ``PostgresError`` naming host, port and database (never the password) when the
    ///   server cannot be reached or refuses the login; ``PluginError`` when a setting is also in `url`.
    public init(url: String, settings: [String: String] = [:]) throws {
        connection = try PostgresConnection(url: PostgresConnectionString.adding(settings, to: url))
        sqlEngine = try PostgresEngine(connection: connection)
    }
}
