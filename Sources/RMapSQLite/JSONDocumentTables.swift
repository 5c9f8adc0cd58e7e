import RMap

/// The tables of a `json` store's document, moved between it and the scratch SQLite database
/// that holds them while the store is open.
///
/// The document is `{"<table>": [row...], "<join table>": [link...], "_base": {"<table>": [row...]}}`,
/// each row an object of column -> value (the payload forms: `"12.50"`, `"2024-01-02"`,
/// `"2024-01-02T03:04:05.000Z"`, arrays and JSON as they are). A row's base is under `_base`
/// whatever it is, the row itself when unchanged; a row without one was created locally, a base
/// without a row is a row deleted locally. The database keeps bases the `sqlite` store's way
/// (``SQLiteBaseCapture``): loaded whole, they are settled to that form by SQL, and written
/// back whole.
struct JSONDocumentTables {
    /// The key of the base tables.
    static let baseKey = "_base"
    /// The start of the names of the tables rmap makes with SQL of its own, not through a schema
    /// change: the objects of remembered payloads (`_rmap_remembered_<table>`).
    static let ownTablePrefix = "_rmap_remembered_"

    /// Whether rmap makes the table `name` with SQL of its own: the objects of remembered payloads
    /// (``ownTablePrefix``) and the payloads' numbers (``PayloadNumbers``).
    static func isOwn(_ name: String) -> Bool { name.hasPrefix(ownTablePrefix) || name == PayloadNumbers.name }

    let document: JSONObject
    /// The document's path, for messages.
    let origin: String
    let connection: SQLiteConnection

    // MARK: - Document to database

    /// Fills `table` (created empty) with the document's rows, after adding the columns its rows
    /// and bases hold and the layout lacks (as `json`, or as its holder column is typed: kept, never dropped).
    ///
    /// - Returns: `table` with those columns.
    /// - Throws: ``PersistError`` for a row that is not an object or a value not of its column's type.
    func loadRows(_ table: TableLayout) throws -> TableLayout {
        let rows = try objects(document[table.name], table.name)
        let bases = try objects(document[Self.baseKey]?.object?[table.name], table.name)
        var held = table
        for object in rows + bases {
            for key in object.keys where held.columnIndex(key) == nil {
                held.columns.append(
                    ColumnLayout(name: key, type: table.holders.first { $0.name == key }?.type ?? .json))
            }
        }
        try addMissingColumns(held.columns, to: table.name)
        try insert(rows, into: table.name, held.columns, replacing: true)
        return held
    }

    /// Fills the base table of `table` (its columns as ``loadRows(_:)`` returned them) with the
    /// document's bases; those without a whole identity are left out, as the table keys them.
    /// With `keeping`, a base the table holds already stays.
    ///
    /// - Throws: ``PersistError`` as ``loadRows(_:)`` does.
    func loadBases(_ table: TableLayout, keeping: Bool = false) throws {
        let names = table.identityNames
        let bases = try objects(document[Self.baseKey]?.object?[table.name], table.name).filter { base in
            names.allSatisfy { (base[$0] ?? .null) != .null }
        }
        try addMissingColumns(table.columns, to: table.baseName)
        try insert(bases, into: table.baseName, table.columns, replacing: !keeping)
    }

    /// Fills a join table (created empty) with the document's links.
    ///
    /// - Throws: ``PersistError`` as ``loadRows(_:)`` does.
    func loadLinks(_ join: JoinTableLayout) throws {
        try insert(try objects(document[join.name], join.name), into: join.name, join.columns, replacing: false)
    }

    /// Creates and fills a table rmap makes with SQL of its own (``isOwn(_:)``) from the document, its columns typed by
    /// their first value that is not null (a number without a fraction or exponent an `int`).
    ///
    /// - Returns: its columns.
    func loadPlain(_ name: String) throws -> [ColumnLayout] {
        let rows = try objects(document[name], name)
        var columns: [ColumnLayout] = []
        for object in rows {
            for (key, value) in object.members where value != .null && !columns.contains(where: { $0.name == key }) {
                columns.append(ColumnLayout(name: key, type: Self.type(of: value)))
            }
        }
        guard !columns.isEmpty else { return [] }
        try connection.execute(
            "CREATE TABLE \(SQLiteSchema.quote(name)) (\(columns.map(SQLiteSchema.definition).joined(separator: ", ")))"
        )
        try insert(rows, into: name, columns, replacing: false)
        return columns
    }

    /// The columns of a table of the database, typed by their SQL types.
    func plainColumns(of name: String) throws -> [ColumnLayout] {
        try connection.query("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.string(name)]).compactMap {
            row in
            guard case .text(let column)? = row.first else { return nil }
            let type: AttributeType =
                switch row.last {
                case .text("INTEGER")?: .int
                case .text("REAL")?: .double
                default: .string
                }
            return ColumnLayout(name: column, type: type)
        }
    }

    /// The tables of the database that rmap makes with SQL of its own (``isOwn(_:)``).
    func ownTables() throws -> [String] {
        try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { row in
            if case .text(let name)? = row.first, Self.isOwn(name) { name } else { nil }
        }
    }

    private static func type(of value: JSONValue) -> AttributeType {
        switch value {
        case .number(let text): text.contains(where: { ".eE".contains($0) }) ? .double : .int
        case .bool: .bool
        case .string: .string
        default: .json
        }
    }

    private func objects(_ json: JSONValue?, _ table: String) throws -> [JSONObject] {
        try (json?.array ?? []).map { item in
            guard let object = item.object else {
                throw PersistError.rowNotObject(origin: origin, table: table, kind: item.kindName)
            }
            return object
        }
    }

    private func addMissingColumns(_ columns: [ColumnLayout], to table: String) throws {
        let existing = Set(try connection.orderedColumns(of: table))
        for column in columns where !existing.contains(column.name) {
            try connection.execute(
                "ALTER TABLE \(SQLiteSchema.quote(table)) ADD COLUMN \(SQLiteSchema.definition(column))")
        }
    }

    /// Inserts `objects` as rows of `columns`; a row whose key is taken replaces the earlier one
    /// (`replacing`: the document's last row of an identity wins) or is dropped (a link twice).
    private func insert(_ objects: [JSONObject], into table: String, _ columns: [ColumnLayout], replacing: Bool)
        throws
    {
        guard !objects.isEmpty else { return }
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let statement = try connection.statement(
            "INSERT OR \(replacing ? "REPLACE" : "IGNORE") INTO \(SQLiteSchema.quote(table)) "
                + "(\(SQLiteSchema.list(columns.map(\.name)))) VALUES (\(placeholders))")
        defer { statement.reset() }
        for object in objects {
            let values = try columns.map { column in
                let json = object[column.name] ?? .null
                guard let value = ValueConverter.value(from: json, as: column.type) else {
                    throw PersistError.valueMismatch(
                        origin: origin, table: table, column: column.name, value: ValueText.display(json),
                        type: "\(column.type)")
                }
                return value
            }
            statement.bind(values)
            try statement.run()
            statement.reset()
        }
    }

    // MARK: - Database to document

    /// The document with `tables` as the database holds them now, the tables it does not hold
    /// kept as they were: rows in the order they were written, bases, links and rmap's own tables
    /// sorted.
    ///
    /// - Throws: ``SQLiteError``.
    func exported(_ tables: [String: MirroredTable]) throws -> JSONObject {
        var updated = document
        var bases = document[Self.baseKey]?.object ?? JSONObject()
        for name in tables.keys.sorted() {
            switch tables[name] {
            case .rows(let table):
                let columns = SQLiteSchema.list(table.columns.map(\.name))
                let rows = try read("SELECT \(columns) FROM \(SQLiteSchema.quote(name)) ORDER BY rowid", table.columns)
                updated[name] = .array(rows.map { Self.object($0, table.columns) })
                bases[name] = .array(
                    try read(basesQuery(table), table.columns).sorted(by: Self.order).map {
                        Self.object($0, table.columns)
                    })
            case .links(let join):
                let links = try read(
                    "SELECT \(SQLiteSchema.list(join.columns.map(\.name))) FROM \(SQLiteSchema.quote(name))",
                    join.columns)
                updated[name] = .array(links.sorted(by: Self.order).map { Self.object($0, join.columns) })
            case .plain(let columns):
                let rows = try read(
                    "SELECT \(SQLiteSchema.list(columns.map(\.name))) FROM \(SQLiteSchema.quote(name))", columns)
                updated[name] = .array(rows.sorted(by: Self.order).map { Self.object($0, columns) })
            case nil:
                continue
            }
        }
        updated[Self.baseKey] = .object(bases)
        return updated
    }

    /// Every base of `table`: its base rows, then (for an entity's table, once it has its table of
    /// identities created locally) each row with a whole identity that has none and was not
    /// created locally. rmap's own tables (`_rmap_...`) keep no bases of their rows.
    private func basesQuery(_ table: TableLayout) throws -> String {
        let q = SQLiteSchema.quote
        let columns = table.columns.map(\.name)
        guard !(try connection.orderedColumns(of: table.baseName)).isEmpty else { return "SELECT NULL WHERE 0" }
        let stored = "SELECT \(SQLiteSchema.list(columns)) FROM \(q(table.baseName))"
        guard !table.name.hasPrefix("_rmap_"), !table.identity.isEmpty,
            !(try connection.orderedColumns(of: table.insertedName)).isEmpty
        else { return stored }
        func same(_ other: String) -> String {
            table.identityNames.map { "\(other).\(q($0)) = r.\(q($0))" }.joined(separator: " AND ")
        }
        let complete = table.identityNames.map { "r.\(q($0)) IS NOT NULL" }.joined(separator: " AND ")
        return stored + " UNION ALL SELECT " + columns.map { "r.\(q($0))" }.joined(separator: ", ")
            + " FROM \(q(table.name)) AS r WHERE \(complete)"
            + " AND NOT EXISTS (SELECT 1 FROM \(q(table.baseName)) AS b WHERE \(same("b")))"
            + " AND NOT EXISTS (SELECT 1 FROM \(q(table.insertedName)) AS m WHERE \(same("m")))"
    }

    private func read(_ sql: String, _ columns: [ColumnLayout]) throws -> [[Value]] {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        var rows: [[Value]] = []
        while try statement.step() {
            rows.append(columns.indices.map { statement.value(Int32($0), as: columns[$0].type) })
        }
        return rows
    }

    private static func object(_ row: [Value], _ columns: [ColumnLayout]) -> JSONValue {
        .object(JSONObject(zip(columns, row).map { ($0.name, ValueConverter.json(from: $1)) }))
    }

    private static func order(_ lhs: [Value], _ rhs: [Value]) -> Bool {
        ValueText.display(.array(lhs)) < ValueText.display(.array(rhs))
    }

    /// Whether `new` (a document ``exported(_:)`` from `old`) says anything `old` does not: a
    /// table it adds empty (one the database made for a mapping, which holds nothing) does not.
    static func differs(_ new: JSONObject, from old: JSONObject) -> Bool {
        new.members.contains { key, value in
            let before = old[key]
            if key == baseKey, let bases = value.object {
                return differs(bases, from: before?.object ?? JSONObject())
            }
            return before != value && !(before == nil && value == .array([]))
        }
    }
}
