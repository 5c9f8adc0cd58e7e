/// One `SELECT` of objects from an entity table (alias `o`), in an engine's dialect: each row's
/// handle and columns, then any ``extra`` expressions, under the query's conditions, in a total
/// order (the row handle last), a page at a time.
///
/// Pages follow each other by key (``after``: the order's values of the last row read), not by
/// an `OFFSET` that the engine would have to walk again: each page costs what it reads, so a
/// cursor over millions of rows reads them in linear time. Nulls sort first in an ascending key
/// and last in a descending one, on every engine.
///
/// ```swift
/// var select = ObjectSelect(table: table, dialect: engine.dialect)
/// select.condition("o.\"last_name\" = ?", [.string("Lovelace")])
/// select.order.append(.init(expression: "o.\"first_name\"", type: .string, descending: false))
/// let (sql, parameters) = select.sql(after: nil, limit: 100, offset: 0)
/// ```
struct ObjectSelect {
    /// One key of the order: an SQL expression, the type of its values, its direction.
    struct OrderKey {
        var expression: String
        var type: AttributeType
        var descending: Bool
    }

    /// The alias of the table's rows.
    static let alias = "o"

    let table: TableLayout
    let dialect: any SQLDialect.Type
    /// Joined tables, each `JOIN ... ON ...`, after the table.
    var joins: [String] = []
    /// The names of the tables ``joins`` joins.
    var joinedTables: [String] = []
    /// The conditions, ANDed.
    var conditions: [String] = []
    /// The parameters of ``joins`` and ``conditions``, in order.
    var parameters: [Value] = []
    /// The order's keys before the row handle, which ends every order.
    var order: [OrderKey] = []
    /// Expressions selected after the columns, with their types.
    var extra: [(sql: String, type: AttributeType)] = []
    /// rmap's own columns the conditions read (``TableLayout/holders``), as `(table, column)`: a
    /// store written before they existed lacks them.
    var holderColumns: [(table: String, column: String)] = []

    init(table: TableLayout, dialect: any SQLDialect.Type) {
        self.table = table
        self.dialect = dialect
    }

    /// `o."name"`.
    func column(_ name: String) -> String { "\(Self.alias).\(dialect.quote(name))" }

    /// The row handle of `o`.
    var handle: String { column(dialect.rowHandle) }

    /// Adds a condition and its parameters.
    mutating func condition(_ sql: String, _ values: [Value] = []) {
        conditions.append(sql)
        parameters += values
    }

    /// The types a row of the result is read as: the handle, the columns, the extras, the order's values.
    var types: [AttributeType] {
        [.int] + table.columns.map(\.type) + extra.map(\.type) + order.map(\.type)
    }

    /// Where a result row's order values start.
    var firstOrderValue: Int { 1 + table.columns.count + extra.count }

    /// The keys of the order, the handle last.
    private var keys: [OrderKey] { order + [OrderKey(expression: handle, type: .int, descending: false)] }

    /// The statement and its parameters: the rows after the one whose order values are `after`
    /// (none: from the first), at most `limit` (none: all), skipping `offset` first.
    func sql(after: [Value]?, limit: Int?, offset: Int = 0) -> (sql: String, parameters: [Value]) {
        var parameters = parameters
        var conditions = conditions
        if let after { conditions.append(keyset(after, &parameters)) }
        let selected =
            ["\(handle)", table.columns.map { column($0.name) }.joined(separator: ", ")]
            + extra.map(\.sql) + order.map(\.expression)
        var sql =
            "SELECT \(selected.joined(separator: ", ")) FROM \(dialect.quote(table.name)) AS \(Self.alias)"
        for join in joins { sql += " \(join)" }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY " + keys.map(orderTerms).joined(separator: ", ")
        // Every engine takes an `OFFSET` after a `LIMIT`; "no limit" is spelled differently, a largest one alike.
        if limit != nil || offset > 0 { sql += " LIMIT \(limit ?? Int.max)" }
        if offset > 0 { sql += " OFFSET \(offset)" }
        return (sql, parameters)
    }

    /// A key's `ORDER BY` terms: nulls first ascending, last descending, then the values.
    private func orderTerms(_ key: OrderKey) -> String {
        let direction = key.descending ? " DESC" : ""
        let value = dialect.orderable(key.expression, type: key.type) + direction
        guard key.expression != handle else { return value }
        return "CASE WHEN \(key.expression) IS NULL THEN 0 ELSE 1 END\(direction), \(value)"
    }

    /// True for the rows that come after the row whose order values (handle last) are `after`.
    private func keyset(_ after: [Value], _ parameters: inout [Value]) -> String {
        var alternatives: [String] = []
        var equal: [String] = []
        var equalParameters: [Value] = []
        for (key, value) in zip(keys, after) {
            let ordered = dialect.orderable(key.expression, type: key.type)
            let bound = dialect.orderable("?", type: key.type)
            let later: String?
            if value.isNull {
                later = key.descending ? nil : "\(key.expression) IS NOT NULL"
            } else {
                later =
                    key.descending
                    ? "(\(ordered) < \(bound) OR \(key.expression) IS NULL)" : "\(ordered) > \(bound)"
            }
            if let later {
                alternatives.append((equal + [later]).joined(separator: " AND "))
                parameters += equalParameters + (value.isNull ? [] : [value])
            }
            equal.append(value.isNull ? "\(key.expression) IS NULL" : "\(ordered) = \(bound)")
            if !value.isNull { equalParameters.append(value) }
        }
        return alternatives.isEmpty ? "1 = 0" : "(" + alternatives.map { "(\($0))" }.joined(separator: " OR ") + ")"
    }
}
