/// A ``Predicate`` (`when`, `where`, `delete_when`) as an SQL condition over one row of an
/// entity's table, with its operands as parameters.
///
/// Conditions compare scalars as connecting does (docs/mapping.md, "Predicates"): numbers by
/// value, text, dates and date-times in their order; a missing or `null` value meets only
/// `null: true`, an array value only `null: false` and `ne`.
///
/// ```swift
/// let condition = PredicateSQL.condition(predicate, of: type, alias: "r", binding: binding, table: table, dialect: d)
/// "... WHERE \(condition.sql)"   // with condition.parameters bound in order
/// ```
struct PredicateSQL {
    /// The condition (`1 = 1` for an empty predicate).
    var sql: String
    /// Its parameters, in order.
    var parameters: [Value]

    /// The condition of `predicate` on entity `type`'s row `alias` of `table`.
    static func condition(
        _ predicate: Predicate, of type: EntityType, alias: String, binding: EntityBinding, table: TableLayout,
        dialect: any SQLDialect.Type
    ) -> PredicateSQL {
        var parameters: [Value] = []
        var clauses: [String] = []
        for clause in predicate.clauses {
            guard let position = type.attributeIndex(clause.attribute) else {
                clauses.append("1 = 0")
                continue
            }
            let column = table.columns[binding.attributeColumns[position]]
            let reference = "\(alias).\(dialect.quote(column.name))"
            clauses.append(condition(clause.condition, reference, column.type, dialect, &parameters))
        }
        return PredicateSQL(sql: clauses.isEmpty ? "1 = 1" : clauses.joined(separator: " AND "), parameters: parameters)
    }

    private static func condition(
        _ condition: Predicate.Condition, _ column: String, _ type: AttributeType, _ dialect: any SQLDialect.Type,
        _ parameters: inout [Value]
    ) -> String {
        if type.isArray {
            switch condition {
            case .null(let isNull): return isNull ? "\(column) IS NULL" : "\(column) IS NOT NULL"
            case .ne: return "\(column) IS NOT NULL"
            default: return "1 = 0"
            }
        }
        func compare(_ op: String, _ value: Value) -> String {
            parameters.append(value)
            let left = dialect.orderable(column, type: type)
            let right = dialect.orderable("?", type: type)
            return "(\(column) IS NOT NULL AND \(left) \(op) \(right))"
        }
        func equal(_ value: Value) -> String {
            parameters.append(value)
            return "(\(column) IS NOT NULL AND \(dialect.same(column, "?", type: type)))"
        }
        switch condition {
        case .eq(let value): return equal(value)
        case .ne(let value):
            parameters.append(value)
            return "(\(column) IS NOT NULL AND NOT (\(dialect.same(column, "?", type: type))))"
        case .lt(let value): return compare("<", value)
        case .le(let value): return compare("<=", value)
        case .gt(let value): return compare(">", value)
        case .ge(let value): return compare(">=", value)
        case .in(let values):
            guard !values.isEmpty else { return "1 = 0" }
            return "(" + values.map(equal).joined(separator: " OR ") + ")"
        case .null(let isNull): return isNull ? "\(column) IS NULL" : "\(column) IS NOT NULL"
        }
    }
}
