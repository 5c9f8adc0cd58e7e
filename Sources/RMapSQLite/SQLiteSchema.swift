import RMap

/// The SQL of MAPPING.md §5 for SQLite: the dialect of the tables (``SchemaDiff`` writes
/// their DDL) and the statements the engine runs.
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
    static let linksIgnoreDuplicates = true

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
        "\"" + (name.utf8.contains(UInt8(ascii: "\"")) ? name.replacingOccurrences(of: "\"", with: "\"\"") : name)
            + "\""
    }

    /// The SQLite column type of a logical type.
    static func columnType(_ type: AttributeType) -> String {
        switch type {
        case .int, .bool: "INTEGER"
        case .double: "REAL"
        case .string, .url, .uuid, .decimal, .date, .datetime, .json, .array: "TEXT"
        }
    }
}
