/// The rows of a graph table in the order of their identities, the primary key of the store's
/// tables (MAPPING.md §5): ``PersistWriter`` writes rows, bases and links in this order, so that
/// each insert lands beside the previous one in the engine's B-trees instead of on a random page
/// that must be read back (a nested payload lists its children in no order of identity).
///
/// Lone integer identities, the usual `id`, sort as numbers; other identities sort value by value:
/// a missing or null value first, then numbers, then strings (by their UTF-8 bytes, as SQLite's
/// `BINARY` collation), and values of other kinds keep the order the rows were added in. Rows
/// already in order (a payload sorted by identity) are returned as they are, unsorted.
enum IdentityOrder {
    /// The rows of `root`'s table (removed ones left out), by identity; 4 bytes a row, kept for
    /// the whole write.
    ///
    /// - Complexity: O(n) when the rows were added in order of identity, else O(n log n).
    static func rows(of root: EntityType, in graph: ObjectGraph) -> [Int32] {
        let table = graph.table(root.index)
        var rows: [Int32] = []
        rows.reserveCapacity(table.count)
        table.forEachRow { rows.append(Int32($0)) }
        if let numbers = integerIdentities(rows, table, family: graph.schema.family(of: root)) {
            guard !isAscending(numbers) else { return rows }
            var pairs = Array(zip(numbers, rows))
            // Identities are unique in a table: no two rows tie.
            pairs.sort { $0.0 < $1.0 }
            return pairs.map(\.1)
        }
        let identities = rows.map { GraphObject(graph: graph, root: root.index, row: Int($0)).identity.values }
        var order = Array(rows.indices)
        order.sort { left, right in
            switch compare(identities[left], identities[right]) {
            case .ascending: true
            case .descending: false
            case .same: left < right
            }
        }
        return order.map { rows[$0] }
    }

    /// Each row's identity when every row has a lone integer one; `nil` otherwise. `family`: the
    /// entities the table holds (looked up by entity position, so a table costs its own entities).
    private static func integerIdentities(
        _ rows: [Int32], _ table: ObjectTable, family: [EntityType]
    ) -> [Int64]? {
        let positions = Dictionary(
            family.map { ($0.index, $0.identityIndices.count == 1 ? $0.identityIndices[0] : -1) },
            uniquingKeysWith: { first, _ in first })
        let lone = family.count == 1 ? positions.values.first : nil
        var numbers: [Int64] = []
        numbers.reserveCapacity(rows.count)
        for row in rows.lazy.map(Int.init) {
            let position = lone ?? positions[table.type(of: row)] ?? -1
            guard position >= 0, case .int(let number)? = table.value(of: row, at: position) else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    private static func isAscending(_ numbers: [Int64]) -> Bool {
        var previous = Int64.min
        for number in numbers {
            if number < previous { return false }
            previous = number
        }
        return true
    }

    /// How two values (or identities) compare.
    enum Comparison {
        case ascending, same, descending
    }

    /// Compares identities value by value.
    static func compare(_ left: [Value], _ right: [Value]) -> Comparison {
        for (a, b) in zip(left, right) {
            let result = compare(a, b)
            if result != .same { return result }
        }
        return left.count == right.count ? .same : left.count < right.count ? .ascending : .descending
    }

    /// Compares two values: null, then numbers, then strings; values of other kinds are the same.
    static func compare(_ left: Value, _ right: Value) -> Comparison {
        switch (left, right) {
        case (.int(let a), .int(let b)): return order(a, b)
        case (.string(let a), .string(let b)):
            if a.utf8.elementsEqual(b.utf8) { return .same }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? .ascending : .descending
        default:
            guard let a = number(left), let b = number(right) else { return order(rank(left), rank(right)) }
            return order(a, b)
        }
    }

    /// Where a value's kind sorts: null first, then numbers, then strings, then the others.
    private static func rank(_ value: Value) -> Int {
        switch value {
        case .null: 0
        case .bool, .int, .double: 1
        case .string: 2
        default: 3
        }
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .bool(let flag): flag ? 1 : 0
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> Comparison {
        a < b ? .ascending : a == b ? .same : .descending
    }
}
