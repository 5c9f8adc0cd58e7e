import RMap

/// The SQL of MAPPING.md §5 for PostgreSQL: the dialect of the tables
/// (``SchemaDiff`` writes their DDL) and the statements ``PostgresEngine`` runs.
///
/// An entity table `t` has the layout's columns, a unique key on the
/// identity, and `_rmap_rowid bigserial` (the row's handle for `push`, in
/// insertion order, kept by upserts). Its base is `_rmap_base_t`: the same
/// columns, the identity as primary key, for the rows changed locally alone
/// (``PostgresBaseCapture``); a base without a row was deleted locally.
enum PostgresSchema: SQLDialect {
    static let engineName = "PostgreSQL"
    static let maximumNameLength: Int? = 63
    /// The row handle column of entity tables.
    static let rowid = "_rmap_rowid"
    static let rowHandleDefinitions = ["\(quote(rowid)) bigserial"]
    static let rowHandle = rowid

    /// Numbers as ``CanonicalKey`` writes them: `numeric` without trailing zeros (`trim_scale`,
    /// PostgreSQL 13 and later); a double through its shortest exact text (a `float8` cast to
    /// `numeric` directly keeps 15 digits: `0.30000000000000004` would key as `0.3`). Booleans `1`/`0`,
    /// null for null; dates and date-times in their canonical text.
    static func keyExpression(_ column: String, type: AttributeType) -> String {
        switch type {
        case .decimal: "trim_scale(\(column)::numeric)::text"
        case .double: "trim_scale(\(column)::text::numeric)::text"
        case .bool: "(CASE WHEN \(column) THEN '1' WHEN NOT \(column) THEN '0' END)"
        case .uuid, .date: "\(column)::text"
        case .datetime: "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        case .json, .array: "\(column)::text"
        default: column
        }
    }

    static func quote(_ name: String) -> String { PostgresConnection.quoteIdentifier(name) }

    /// `ANALYZE`: autovacuum never visits temporary tables.
    static func statistics(of table: String) -> String? { "ANALYZE \(quote(table))" }

    static func list(_ names: some Sequence<String>, prefix: String) -> String {
        names.map { prefix + quote($0) }.joined(separator: ", ")
    }

    /// The PostgreSQL column type of a logical type (MAPPING.md §5).
    static func columnType(_ type: AttributeType) -> String {
        switch type {
        case .string, .url: "text"
        case .uuid: "uuid"
        case .int: "bigint"
        case .double: "double precision"
        case .decimal: "numeric"
        case .bool: "boolean"
        case .date: "date"
        case .datetime: "timestamptz"
        case .array, .json: "jsonb"
        }
    }
}
