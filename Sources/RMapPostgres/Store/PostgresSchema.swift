import RMap

/// The SQL of MAPPING.md §5 for PostgreSQL: the dialect of the tables
/// (``SchemaDiff`` writes their DDL) and the statements ``PostgresBackend`` runs.
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

    // MARK: - Sets of values as parameters

    /// `unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS alias("id", "code", "_rmap_n")`: one
    /// row per element of array parameters `$first`, `$first+1`, ... holding the columns' values.
    static func unnest(_ columns: [ColumnLayout], alias: String, from first: Int = 1, ordinality: Bool = false)
        -> String
    {
        let arrays = columns.enumerated().map { "$\(first + $0)::\(columnType($1.type))[]" }.joined(separator: ", ")
        let names = columns.map(\.name) + (ordinality ? ["_rmap_n"] : [])
        return "unnest(\(arrays))\(ordinality ? " WITH ORDINALITY" : "") AS \(alias)(\(list(names)))"
    }

    /// The array parameters for ``unnest(_:alias:from:ordinality:)``: one array literal per column.
    static func arrays(_ rows: [[Value]], width: Int) -> [String?] {
        (0..<width).map { column in PostgresValueText.arrayLiteral(rows.lazy.map { $0[column] }) }
    }

    static func matching(_ names: [String], _ left: String, _ right: String) -> String {
        names.map { "\(left).\(quote($0)) = \(right).\(quote($0))" }.joined(separator: " AND ")
    }

    // MARK: - DML

    /// `INSERT INTO name (columns) SELECT columns FROM source ON CONFLICT (identity) DO UPDATE` of every other column.
    static func upsert(into name: String, _ table: TableLayout, from source: String) -> String {
        let names = table.columns.map(\.name)
        return "INSERT INTO \(quote(name)) (\(list(names))) SELECT \(list(names, prefix: "s.")) FROM \(source) "
            + onConflictUpdate(table)
    }

    /// Deletes the rows of `name` whose `columns` match one of the parameter arrays' rows.
    static func delete(from name: String, matching columns: [ColumnLayout]) -> String {
        "DELETE FROM \(quote(name)) AS t USING \(unnest(columns, alias: "i")) "
            + "WHERE \(matching(columns.map(\.name), "t", "i"))"
    }
}
