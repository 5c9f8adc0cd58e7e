/// The contents of a memory store: tables by name, copied whole for a transaction's undo.
struct MemoryDatabase {
    var tables: [String: MemoryTable] = [:]
    var joins: [String: MemoryJoin] = [:]
}

/// One entity table: rows by handle, an identity index and the base.
///
/// Rows and bases hold the layout's columns first, then columns that the
/// mapping no longer has (kept, never dropped).
struct MemoryTable {
    var columns: [ColumnLayout]
    var identity: [Int]
    var rows: [RowReference: [Value]] = [:]
    var references: [IdentityKey: RowReference] = [:]
    var base: [IdentityKey: [Value]] = [:]
    var nextReference: RowReference = 1

    init(columns: [ColumnLayout], identity: [Int]) {
        self.columns = columns
        self.identity = identity
    }

    func key(_ row: [Value]) -> IdentityKey {
        IdentityKey(identity.map { row[$0] })
    }

    /// `values` (the layout's columns) completed with `existing`'s extra columns, or nulls.
    func fitted(_ values: [Value], keeping existing: [Value]?) -> [Value] {
        guard values.count < columns.count else { return values }
        return values
            + (existing.map { Array($0[values.count...]) }
                ?? Array(repeating: .null, count: columns.count - values.count))
    }

    mutating func upsert(_ values: [Value]) {
        let key = key(values)
        if !key.isIncomplete, let reference = references[key] {
            rows[reference] = fitted(values, keeping: rows[reference])
            return
        }
        insert(fitted(values, keeping: nil))
    }

    mutating func insert(_ row: [Value]) {
        let reference = nextReference
        nextReference += 1
        rows[reference] = row
        let key = key(row)
        if !key.isIncomplete { references[key] = reference }
    }

    /// Puts the columns in the layout's order (new ones null), keeping the others after them.
    mutating func adopt(_ layout: TableLayout) {
        let names = columns.map(\.name)
        let extras = columns.indices.filter { position in layout.columnIndex(names[position]) == nil }
        let order: [Int?] = layout.columns.map { names.firstIndex(of: $0.name) } + extras.map { Optional($0) }
        guard order != columns.indices.map({ Optional($0) }) else { return }
        func reorder(_ row: [Value]) -> [Value] { order.map { $0.map { row[$0] } ?? .null } }
        columns = layout.columns + extras.map { columns[$0] }
        identity = layout.identity
        rows = rows.mapValues(reorder)
        base = base.mapValues(reorder)
    }
}

/// One join table: links grouped by the source's identity.
struct MemoryJoin {
    var columns: [ColumnLayout]
    var sourceColumnCount: Int
    var links: [IdentityKey: Set<[Value]>] = [:]

    mutating func add(_ link: [Value]) {
        links[IdentityKey(Array(link.prefix(sourceColumnCount))), default: []].insert(link)
    }
}
