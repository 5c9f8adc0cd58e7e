/// A narrow copy of one table's merged rows (``RowCollapse``) for finding destinations by
/// identity: their keys, entity and identity, keyed by the keys (`_rmap_keys_<n>`).
///
/// Connecting looks a destination up once per source key. In the merged rows, which hold every
/// column of the table, those lookups land all over a table larger than the engine's cache:
/// joining 900,000 team-member ids with 100,000 people read SQLite's temporary file page by page
/// (1.05 s); the same join through the keys and identity alone, a few MiB, took 0.57 s
/// (docs/performance-log.md, "The streamed run's first import into SQLite").
struct DestinationKeys {
    let stage: StageTable
    let dialect: any SQLDialect.Type

    /// The table's name.
    var name: String { Self.name(stage.position) }

    /// The name of the keys of the table at `position`.
    static func name(_ position: Int) -> String { "_rmap_keys_\(position)" }

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// The statements that make and fill the table (dropping one a failed run left).
    func create() -> [String] {
        let columns =
            stage.keyColumns + [ColumnLayout(name: "_entity", type: .int)]
            + stage.table.identity.map { stage.table.columns[$0] }
        let keys = dialect.list(stage.keyColumns.map(\.name))
        let definitions = columns.map { dialect.definition($0) } + ["PRIMARY KEY (\(keys))"]
        return [
            "DROP TABLE IF EXISTS \(q(name))",
            "CREATE TEMPORARY TABLE \(q(name)) (\(definitions.joined(separator: ", ")))",
            "INSERT INTO \(q(name)) (\(dialect.list(columns.map(\.name)))) SELECT \(dialect.list(columns.map(\.name))) "
                + "FROM \(q(stage.rowsName)) ORDER BY \(keys)",
        ]
    }
}
