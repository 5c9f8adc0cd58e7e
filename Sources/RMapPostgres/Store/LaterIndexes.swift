import RMap

/// The indexes of a transaction's new tables that are built once their rows are in: one
/// sorted build instead of an insert per row into a B-tree that the rows reach in random order.
///
/// Secondary indexes (foreign-key columns, a join table's destination) are built at commit:
/// they enforce nothing. A new join table's primary key is dropped when the table is made and
/// added again, under the same name, at commit. Measured in docs/performance-log.md
/// ("PostgreSQL at COPY speed").
final class LaterIndexes {
    private let connection: PostgresConnection
    /// `CREATE INDEX` statements, run at commit.
    private var secondary: [String] = []
    /// By join table name: the statement that adds its primary key back.
    private var primaryKeys: [String: String] = [:]

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Forgets what the transaction postponed (its end drops the tables or keeps them built).
    func reset() {
        secondary.removeAll()
        primaryKeys.removeAll()
    }

    /// Runs a schema change's statements but its `CREATE INDEX`es, which wait for the commit,
    /// and drops the primary keys of the join tables it creates until the commit.
    func create(_ diff: SchemaDiff) throws {
        let statements = try diff.statements(PostgresSchema.self)
        guard !statements.isEmpty else { return }
        let now = statements.filter { !$0.hasPrefix("CREATE INDEX ") }
        secondary += statements.filter { $0.hasPrefix("CREATE INDEX ") }
        try connection.execute(now.joined(separator: ";\n"))
        for case .createJoin(let join) in diff.changes { try dropPrimaryKey(join) }
    }

    private func dropPrimaryKey(_ join: JoinTableLayout) throws(PostgresError) {
        let table = PostgresSchema.quote(join.name)
        let result = try connection.query(
            "SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'", [table])
        guard let found = result.rows.first?.first, let name = found else { return }
        let constraint = PostgresSchema.quote(name)
        try connection.execute("ALTER TABLE \(table) DROP CONSTRAINT \(constraint)")
        primaryKeys[join.name] =
            "ALTER TABLE \(table) ADD CONSTRAINT \(constraint) "
            + "PRIMARY KEY (\(PostgresSchema.list(join.columns.map(\.name))))"
    }

    /// Builds every index that waits, before the transaction commits.
    func buildAll() throws(PostgresError) {
        let statements = primaryKeys.values.sorted() + secondary
        reset()
        guard !statements.isEmpty else { return }
        try connection.execute(statements.joined(separator: ";\n"))
    }
}
