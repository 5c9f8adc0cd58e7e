/// The cursors a streamed run advances to, read from its merged rows in the engine: per
/// incremental entity, the largest `cursor` value among the run's objects of exactly that
/// entity, per parent for an entity fetched per parent (the attributes its payloads filled).
/// A parent (or entity) none of whose objects arrived keeps its stored cursor.
enum CursorMaximaSQL {
    /// The largest cursor of each of `entity`'s keys (``IncrementalCursors/key(entity:fill:)``).
    static func maxima(
        of entity: EntityMapping, fills: Set<String>, layout: StageLayout, on engine: any SQLEngine
    ) throws -> [String: Value] {
        guard let sync = entity.incremental, let type = layout.schema.type(named: entity.name),
            let cursor = type.attributeIndex(sync.cursor)
        else { return [:] }
        let q = engine.dialect.quote
        let binding = layout.store.bindings[type.index]
        let stage = layout.table(of: type)
        let table = stage.table
        let cursorColumn = table.columns[binding.attributeColumns[cursor]]
        let filled = fills.sorted().compactMap { name in
            type.attributeIndex(name).map { (name, table.columns[binding.attributeColumns[$0]]) }
        }
        let partition =
            filled.isEmpty ? "" : "PARTITION BY \(filled.map { "r.\(q($0.1.name))" }.joined(separator: ", ")) "
        let order = engine.dialect.orderable("r.\(q(cursorColumn.name))", type: cursorColumn.type)
        let columns = filled.map { "r.\(q($0.1.name))" } + ["r.\(q(cursorColumn.name))"]
        let ranked =
            "SELECT \(columns.joined(separator: ", ")), row_number() OVER (\(partition)ORDER BY \(order) DESC) AS \(q("_rank")) "
            + "FROM \(q(stage.rowsName)) AS r WHERE r.\(q("_entity")) = \(type.index) AND r.\(q(cursorColumn.name)) IS NOT NULL"
        var largest: [String: Value] = [:]
        try engine.query(
            "SELECT * FROM (\(ranked)) AS m WHERE \(q("_rank")) = 1", [],
            types: filled.map(\.1.type) + [cursorColumn.type, .int]
        ) { row in
            var fill: [String: Value] = [:]
            for (offset, (name, _)) in filled.enumerated() { fill[name] = row[offset] }
            largest[IncrementalCursors.key(entity: entity.name, fill: fill)] = row[filled.count]
        }
        return largest
    }
}
