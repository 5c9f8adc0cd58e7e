/// The pieces of SQL that statements over one stage table share, in an engine's dialect: names,
/// presence tests, comparisons by identity and by value.
///
/// ```swift
/// let sql = StagedSQL(table: stage.tables[0], dialect: engine.dialect)
/// sql.present(3, "r")   // "(r."_m0" & 8) <> 0"
/// ```
struct StagedSQL {
    let stage: StageTable
    let dialect: any SQLDialect.Type

    var table: TableLayout { stage.table }

    /// A quoted name.
    func q(_ name: String) -> String { dialect.quote(name) }

    /// `alias."name"`.
    func column(_ alias: String, _ name: String) -> String { "\(alias).\(q(name))" }

    /// The table column at `position` of `alias`.
    func column(_ alias: String, at position: Int) -> String { column(alias, table.columns[position].name) }

    /// True when the occurrence or merged row `alias` carries slot `slot` (a column or an assignment).
    func present(_ slot: Int, _ alias: String) -> String {
        let (mask, bit) = StageTable.bit(of: slot)
        return "(\(column(alias, "_m\(mask)")) & \(bit)) <> 0"
    }

    /// The assignments of an `UPDATE` of row `alias` that mark `slots` present, one per mask
    /// column (``StageTable/masks(of:)``): `"_m0" = alias."_m0" | 9`.
    func markPresent(_ slots: some Sequence<Int>, _ alias: String) -> [String] {
        StageTable.masks(of: slots).map { "\(q("_m\($0.mask)")) = \(column(alias, "_m\($0.mask)")) | \($0.bits)" }
    }

    /// True when `left` and `right` (two row aliases) have the same identity.
    func sameIdentity(_ left: String, _ right: String) -> String {
        table.identityNames.map { "\(column(left, $0)) = \(column(right, $0))" }.joined(separator: " AND ")
    }

    /// True when the column at `position` holds the same value in `left` and `right`.
    func same(_ position: Int, _ left: String, _ right: String) -> String {
        dialect.same(column(left, at: position), column(right, at: position), type: table.columns[position].type)
    }

    /// True when some row of `other` (a table name) has the identity of row `alias`.
    func exists(in other: String, like alias: String) -> String {
        "EXISTS (SELECT 1 FROM \(q(other)) AS x WHERE \(sameIdentity("x", alias)))"
    }

    /// The positions of the table's columns that are not identity columns.
    var valueColumns: [Int] { table.columns.indices.filter { !table.identity.contains($0) } }

    /// `alias."a", alias."b", ...` for the table's columns.
    func columns(_ alias: String) -> String {
        table.columns.map { column(alias, $0.name) }.joined(separator: ", ")
    }

    /// Every table column quoted, unqualified.
    var columnList: String { dialect.list(table.columns.map(\.name)) }
}
