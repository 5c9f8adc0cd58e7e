/// The tables of a JSON store document, read into typed rows when a layout names them.
///
/// The document is `{"<table>": [row...], "<join table>": [link...], "_base": {"<table>": [row...]}}`,
/// each row an object of column -> value (the payload forms: `"12.50"`,
/// `"2024-01-02"`, `"2024-01-02T03:04:05.000Z"`, arrays and JSON as they are).
struct PendingTables {
    /// The key of the base tables.
    static let baseKey = "_base"
    let document: JSONObject
    let origin: String

    func table(_ layout: TableLayout) throws -> MemoryTable? {
        let rows = document[layout.name]?.array
        let bases = document[PendingTables.baseKey]?.object?[layout.name]?.array
        guard rows != nil || bases != nil else { return nil }
        let objects = try (rows ?? []).map { try object($0, layout.name) }
        let baseObjects = try (bases ?? []).map { try object($0, layout.name) }
        var extras: [String] = []
        for object in objects + baseObjects {
            for key in object.keys where layout.columnIndex(key) == nil && !extras.contains(key) { extras.append(key) }
        }
        let columns = layout.columns + extras.map { ColumnLayout(name: $0, type: .json) }
        var table = MemoryTable(columns: columns, identity: layout.identity)
        for object in objects { table.insert(try values(object, columns, layout.name)) }
        for object in baseObjects {
            let row = try values(object, columns, layout.name)
            table.base[table.key(row)] = row
        }
        return table
    }

    func join(_ layout: JoinTableLayout) throws -> MemoryJoin? {
        guard let links = document[layout.name]?.array else { return nil }
        var join = MemoryJoin(columns: layout.columns, sourceColumnCount: layout.sourceColumnCount)
        for link in links { join.add(try values(try object(link, layout.name), layout.columns, layout.name)) }
        return join
    }

    private func object(_ json: JSONValue, _ table: String) throws -> JSONObject {
        guard let object = json.object else {
            throw PersistError.rowNotObject(origin: origin, table: table, kind: json.kindName)
        }
        return object
    }

    private func values(_ object: JSONObject, _ columns: [ColumnLayout], _ table: String) throws -> [Value] {
        try columns.map { column in
            let json = object[column.name] ?? .null
            guard let value = ValueConverter.value(from: json, as: column.type) else {
                throw PersistError.valueMismatch(
                    origin: origin, table: table, column: column.name, value: ValueText.display(json),
                    type: "\(column.type)")
            }
            return value
        }
    }

    /// The document of `database`, keeping the tables it does not hold as they were read.
    func document(of database: MemoryDatabase) -> JSONValue {
        var document = self.document
        var bases = document[PendingTables.baseKey]?.object ?? JSONObject()
        for name in database.tables.keys.sorted() {
            guard let table = database.tables[name] else { continue }
            let rows = table.rows.keys.sorted().compactMap { table.rows[$0] }
            document[name] = .array(rows.map { Self.object($0, table.columns) })
            let base = table.base.values.sorted { Self.order($0, $1) }
            bases[name] = .array(base.map { Self.object($0, table.columns) })
        }
        for name in database.joins.keys.sorted() {
            guard let join = database.joins[name] else { continue }
            let links = join.links.values.flatMap { $0 }.sorted { Self.order($0, $1) }
            document[name] = .array(links.map { Self.object($0, join.columns) })
        }
        document[PendingTables.baseKey] = .object(bases)
        return .object(document)
    }

    private static func object(_ row: [Value], _ columns: [ColumnLayout]) -> JSONValue {
        .object(JSONObject(zip(columns, row).map { ($0.name, ValueConverter.json(from: $1)) }))
    }

    private static func order(_ lhs: [Value], _ rhs: [Value]) -> Bool {
        ValueText.display(.array(lhs)) < ValueText.display(.array(rhs))
    }
}
