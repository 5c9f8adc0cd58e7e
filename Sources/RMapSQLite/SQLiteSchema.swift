import RMap

/// The SQL of MAPPING.md §5 for SQLite: the dialect of the tables (``SchemaDiff`` writes
/// their DDL) and the statements the backend runs.
///
/// The base of an entity table `t` is the table `_rmap_base_t`, with the same
/// columns, keyed by the identity (`WITHOUT ROWID`): a row without a base was
/// created locally, a base without a row was deleted locally.
enum SQLiteSchema: SQLDialect {
    static let engineName = "SQLite"
    static let keyedTableOptions = " WITHOUT ROWID"

    /// Names rarely hold a quote, so Foundation's search runs only for those that do: every
    /// statement's text quotes its names, thousands of times a second in a push.
    static func quote(_ name: String) -> String {
        "\"" + (name.utf8.contains(UInt8(ascii: "\"")) ? name.replacingOccurrences(of: "\"", with: "\"\"") : name) + "\""
    }

    /// The SQLite column type of a logical type.
    static func columnType(_ type: AttributeType) -> String {
        switch type {
        case .int, .bool: "INTEGER"
        case .double: "REAL"
        case .string, .url, .uuid, .decimal, .date, .datetime, .json, .array: "TEXT"
        }
    }

    // MARK: - DML

    /// `INSERT ... ON CONFLICT (identity) DO UPDATE` of every column, for `rows` rows.
    static func upsert(into name: String, _ table: TableLayout, rows: Int) -> String {
        let names = table.columns.map(\.name)
        return "INSERT INTO \(quote(name)) (\(list(names))) VALUES \(values(width: names.count, rows: rows)) "
            + onConflictUpdate(table)
    }

    /// `INSERT OR IGNORE` of `rows` links.
    static func insertLinks(_ join: JoinTableLayout, rows: Int) -> String {
        "INSERT OR IGNORE INTO \(quote(join.name)) VALUES \(values(width: join.columns.count, rows: rows))"
    }

    /// The placeholders of a multi-row `VALUES`: `(?, ?), (?, ?)`.
    private static func values(width: Int, rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Copies the rows above a `rowid` (the one parameter) that have a whole identity into the base, as ``upsert(into:_:)``.
    static func copyToBase(_ table: TableLayout) -> String {
        let names = table.columns.map(\.name)
        let complete = table.identityNames.map { " AND \(quote($0)) IS NOT NULL" }.joined()
        return "INSERT INTO \(quote(table.baseName)) (\(list(names))) "
            + "SELECT \(list(names)) FROM \(quote(table.name)) WHERE rowid > ?\(complete) " + onConflictUpdate(table)
    }

    static func select(from name: String, _ table: TableLayout, rowid: Bool, byIdentity: Bool) -> String {
        let columns = (rowid ? "rowid, " : "") + list(table.columns.map(\.name))
        let condition = byIdentity ? " WHERE " + matching(table.identityNames) : rowid ? " ORDER BY rowid" : ""
        return "SELECT \(columns) FROM \(quote(name))\(condition)"
    }

    /// A row by identity with its base beside it (base columns null when it has none).
    static func selectWithBase(_ table: TableLayout) -> String {
        let names = table.columns.map(\.name)
        let columns = names.map { "r.\(quote($0))" } + names.map { "b.\(quote($0))" }
        let identity = table.identityNames
        let join = identity.map { "b.\(quote($0)) = r.\(quote($0))" }.joined(separator: " AND ")
        let condition = identity.map { "r.\(quote($0)) = ?" }.joined(separator: " AND ")
        return "SELECT \(columns.joined(separator: ", ")) FROM \(quote(table.name)) AS r "
            + "LEFT JOIN \(quote(table.baseName)) AS b ON \(join) WHERE \(condition)"
    }

    /// `SELECT 1` from the base of the row whose identity is bound first (parameters in
    /// `TableLayout.comparedColumns(present:)` order) when it holds the bound value in every
    /// other `present` column (`IS`: null matches null).
    static func matchBase(_ table: TableLayout, present: [Bool]) -> String {
        let columns = table.comparedColumns(present: present)
        let conditions = columns.enumerated().map { position, column in
            "\(quote(table.columns[column].name)) \(position < table.identity.count ? "=" : "IS") ?"
        }
        return "SELECT 1 FROM \(quote(table.baseName)) WHERE \(conditions.joined(separator: " AND "))"
    }

    static func delete(from name: String, where columns: [String]) -> String {
        "DELETE FROM \(quote(name)) WHERE \(matching(columns))"
    }

    static func matching(_ columns: [String]) -> String {
        columns.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
    }
}
