/// The statements the sync API runs on one entity table, its base (`_rmap_base_<t>`) and its
/// notes of local creations (`_rmap_new_<t>`), in an engine's dialect: rows by handle and by
/// identity, the rows that may differ from their base, the bases without a row, and rmap's own
/// writes of rows and bases.
///
/// The store keeps a base row only for a row changed locally (docs/push.md, "What counts as a
/// change"): a row without one is its own base unless its identity is noted as created locally
/// (or incomplete).
///
/// ```swift
/// let people = StoredTable(table: layout.tables[0], engine: engine)
/// let row = try people.row(handle: 12)   // the row's values, or nil
/// ```
struct StoredTable {
    let table: TableLayout
    let engine: any SQLEngine

    private var dialect: any SQLDialect.Type { engine.dialect }
    private func q(_ name: String) -> String { dialect.quote(name) }
    private var name: String { q(table.name) }
    private var handle: String { q(dialect.rowHandle) }
    private var columnTypes: [AttributeType] { table.columns.map(\.type) }

    /// `alias."a", alias."b", ...` for every column.
    private func columns(_ alias: String) -> String {
        table.columns.map { "\(alias).\(q($0.name))" }.joined(separator: ", ")
    }

    /// `alias.id = ? AND ...` over the identity (compared as rmap compares values).
    private func identityIs(_ alias: String) -> String {
        table.identity.map { column in
            StoredModel.equals("\(alias).\(q(table.columns[column].name))", table.columns[column].type, dialect)
        }.joined(separator: " AND ")
    }

    /// `left.id = right.id AND ...`.
    private func sameIdentity(_ left: String, _ right: String) -> String {
        table.identityNames.map { "\(left).\(q($0)) = \(right).\(q($0))" }.joined(separator: " AND ")
    }

    // MARK: - Reading

    /// The values of the row with this handle; `nil` when there is none.
    func row(handle reference: RowReference) throws -> [Value]? {
        try engine.rows(
            "SELECT \(columns("r")) FROM \(name) AS r WHERE r.\(handle) = ?", [.int(reference)], types: columnTypes
        ).first
    }

    /// The handle and values of the row with this identity; `nil` when there is none.
    func row(identity: [Value]) throws -> (handle: RowReference, values: [Value])? {
        guard !identity.contains(where: \.isNull) else { return nil }
        let found = try engine.rows(
            "SELECT r.\(handle), \(columns("r")) FROM \(name) AS r WHERE \(identityIs("r"))", identity,
            types: [.int] + columnTypes)
        guard let first = found.first, case .int(let reference) = first[0] else { return nil }
        return (reference, Array(first.dropFirst()))
    }

    /// What the store holds for an identity: its row and its base (the base row, else the row
    /// itself unless it was created locally); `nil` when it holds neither.
    func state(identity: [Value]) throws -> StoredState? {
        guard !identity.contains(where: \.isNull) else { return nil }
        let base = try engine.rows(
            "SELECT \(columns("b")) FROM \(q(table.baseName)) AS b WHERE \(identityIs("b"))", identity,
            types: columnTypes
        ).first
        guard let row = try row(identity: identity)?.values else { return base.map { StoredState(row: nil, base: $0) } }
        if let base { return StoredState(row: row, base: base) }
        let created = try engine.count(
            "SELECT count(*) FROM \(q(table.insertedName)) AS m WHERE \(identityIs("m"))", identity)
        return StoredState(row: row, base: created > 0 ? nil : row)
    }

    /// The lowest value of an integer column among the rows and bases (0 when none is lower).
    func lowest(_ column: Int) throws -> Int64 {
        let name = q(table.columns[column].name)
        let lowest = try engine.scalar(
            "SELECT min(x.v) FROM (SELECT \(name) AS v FROM \(self.name) UNION ALL "
                + "SELECT \(name) AS v FROM \(q(table.baseName))) AS x", type: .int)
        if case .int(let value)? = lowest { return min(value, 0) }
        return 0
    }

    // MARK: - Local changes

    /// Calls `row` with each row that may differ from its base, in insertion order: its handle,
    /// its values and its base row (`nil`: created locally). Read from the base rows (with
    /// `differing`, only those that differ from their row in one of the `compared` columns, as
    /// ``SQLDialect/same(_:_:type:)`` compares them), the notes of local creations, and the rows
    /// without a whole identity.
    func changedRows(
        compared: [Int], differing: Bool, _ row: (RowReference, [Value], [Value]?) throws -> Void
    ) throws {
        let differs = compared.map { column in
            let name = q(table.columns[column].name)
            return "NOT (\(dialect.same("r.\(name)", "b.\(name)", type: table.columns[column].type)))"
        }
        let nulls = Array(repeating: "NULL", count: table.columns.count).joined(separator: ", ")
        let incomplete = table.identityNames.map { "r.\(q($0)) IS NULL" }.joined(separator: " OR ")
        let selected = "SELECT r.\(handle), \(columns("r")), "
        let sql =
            selected
            + "1, \(columns("b")) FROM \(q(table.baseName)) AS b JOIN \(name) AS r ON \(sameIdentity("r", "b"))"
            + (differing ? " WHERE " + (differs.isEmpty ? "1 = 0" : differs.joined(separator: " OR ")) : "")
            + " UNION ALL " + selected + "0, \(nulls) FROM \(q(table.insertedName)) AS m "
            + "JOIN \(name) AS r ON \(sameIdentity("r", "m")) "
            + "WHERE NOT EXISTS (SELECT 1 FROM \(q(table.baseName)) AS b WHERE \(sameIdentity("b", "m")))"
            + " UNION ALL " + selected + "0, \(nulls) FROM \(name) AS r WHERE \(incomplete) ORDER BY 1"
        let width = table.columns.count
        try engine.query(sql, [], types: [.int] + columnTypes + [.int] + columnTypes) { values in
            guard case .int(let reference) = values[0] else { return }
            let hasBase = values[width + 1] == .int(1)
            try row(reference, Array(values[1...width]), hasBase ? Array(values[(width + 2)...]) : nil)
        }
    }

    /// The base rows whose row was deleted locally.
    func deletedBases() throws -> [[Value]] {
        try engine.rows(
            "SELECT \(columns("b")) FROM \(q(table.baseName)) AS b "
                + "WHERE NOT EXISTS (SELECT 1 FROM \(name) AS r WHERE \(sameIdentity("r", "b")))", types: columnTypes)
    }

    // MARK: - Writing

    /// Sets `values` (by column position) in the row with this handle.
    ///
    /// - Returns: whether there was such a row.
    @discardableResult
    func update(handle reference: RowReference, _ values: [(column: Int, value: Value)]) throws -> Bool {
        guard !values.isEmpty else { return try row(handle: reference) != nil }
        let assignments = values.map { "\(q(table.columns[$0.column].name)) = ?" }.joined(separator: ", ")
        return try engine.execute(
            "UPDATE \(name) SET \(assignments) WHERE \(handle) = ?", values.map(\.value) + [.int(reference)]) > 0
    }

    /// Sets every column of the row with this handle.
    func replace(handle reference: RowReference, with row: [Value]) throws {
        try update(handle: reference, row.enumerated().map { ($0.offset, $0.element) })
    }

    /// Inserts a row, replacing the one with its identity.
    func upsert(_ row: [Value]) throws {
        let marks = Array(repeating: "?", count: row.count).joined(separator: ", ")
        try engine.execute(
            "INSERT INTO \(name) (\(dialect.list(table.columns.map(\.name)))) VALUES (\(marks)) "
                + dialect.onConflictUpdate(table), row)
    }

    /// Deletes the row with this handle.
    ///
    /// - Returns: whether there was such a row.
    func delete(handle reference: RowReference) throws -> Bool {
        try engine.execute("DELETE FROM \(name) WHERE \(handle) = ?", [.int(reference)]) > 0
    }

    /// Deletes the row, the base and the note of a local creation of an identity.
    func delete(identity: [Value]) throws {
        try engine.execute("DELETE FROM \(name) WHERE \(identityIs(name))", identity)
        try settle(identity: identity)
    }

    /// Records that the row of an identity is the server's state: its base row and its note of
    /// a local creation go.
    func settle(identity: [Value]) throws {
        guard !identity.contains(where: \.isNull) else { return }
        try engine.execute("DELETE FROM \(q(table.baseName)) WHERE \(identityIs(q(table.baseName)))", identity)
        try engine.execute("DELETE FROM \(q(table.insertedName)) WHERE \(identityIs(q(table.insertedName)))", identity)
    }

    /// Writes the base row of an identity (the server's state of a row that differs from it).
    func keepBase(_ base: [Value]) throws {
        let marks = Array(repeating: "?", count: base.count).joined(separator: ", ")
        try engine.execute(
            "INSERT INTO \(q(table.baseName)) (\(dialect.list(table.columns.map(\.name)))) VALUES (\(marks)) "
                + dialect.onConflictUpdate(table), base)
    }
}
