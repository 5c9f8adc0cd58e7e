import RMap

/// The SQL of MAPPING.md §5 for SQLite: the dialect of the tables (``SchemaDiff`` writes
/// their DDL) and the statements the backend runs.
///
/// The base of an entity table `t` is the table `_rmap_base_t`, with the same
/// columns, keyed by the identity (`WITHOUT ROWID`), kept for rows changed
/// locally alone (``SQLiteBaseCapture``): a base without a row was deleted locally.
enum SQLiteSchema: SQLDialect {
    static let engineName = "SQLite"
    static let keyedTableOptions = " WITHOUT ROWID"
    static let rowHandle = "rowid"
    static let upsertsInOrder = true
    static let keysStagingInOrder = true

    /// Decimals are the text received: compared by value with `rmap_same_decimal` (``SQLiteFunctions``).
    static func same(_ left: String, _ right: String, type: AttributeType) -> String {
        type == .decimal ? "rmap_same_decimal(\(left), \(right))" : "\(left) IS NOT DISTINCT FROM \(right)"
    }

    /// Decimals, kept as text, as numbers.
    static func orderable(_ expression: String, type: AttributeType) -> String {
        type == .decimal ? "CAST(\(expression) AS REAL)" : expression
    }

    /// Numbers through `rmap_number_key` (``SQLiteFunctions``), booleans as `1`/`0` text; dates and
    /// date-times are stored in their canonical text already.
    static func keyExpression(_ column: String, type: AttributeType) -> String {
        switch type {
        case .decimal, .double: "rmap_number_key(\(column))"
        case .bool: "CAST(\(column) AS TEXT)"
        default: column
        }
    }

    /// The rowid itself: a staging table is kept in arrival order.
    static func sequenceDefinition(_ name: String) -> String { "\(quote(name)) INTEGER PRIMARY KEY" }

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

    /// The placeholders of a multi-row `VALUES`: `(?, ?), (?, ?)`.
    private static func values(width: Int, rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Every row of `table` with its `rowid` first, in insertion order.
    static func selectWithRowid(_ table: TableLayout) -> String {
        "SELECT rowid, \(list(table.columns.map(\.name))) FROM \(quote(table.name)) ORDER BY rowid"
    }

    static func delete(from name: String, where columns: [String]) -> String {
        "DELETE FROM \(quote(name)) WHERE \(matching(columns))"
    }

    static func matching(_ columns: [String]) -> String {
        columns.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
    }
}
