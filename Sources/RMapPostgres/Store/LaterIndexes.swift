import RMap

/// The indexes of a transaction's new tables that are built once their rows are in: one
/// sorted build instead of an insert per row into a B-tree that the rows reach in random order.
///
/// Secondary indexes (foreign-key columns, a join table's destination) are built at commit:
/// they enforce nothing. A new join table's primary key is dropped when the table is made and
/// added again, under the same name, at commit. A new entity table's unique identity is set
/// aside for its first bulk insert only, as the statements after it look rows up by identity
/// and upsert on it. Measured in docs/performance-log.md ("PostgreSQL at COPY speed", "PostgreSQL
/// at twice sqlite-utils").
final class LaterIndexes {
    private let connection: PostgresConnection
    /// `CREATE INDEX` statements, run at commit.
    private var secondary: [String] = []
    /// By join table name: the statement that adds its primary key back.
    private var primaryKeys: [String: String] = [:]
    /// The entity and join tables the transaction made.
    private var madeTables: Set<String> = []
    /// By table name: the statements that add its unique constraints back after an insert.
    private var uniqueKeys: [String: [String]] = [:]

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Forgets what the transaction postponed (its end drops the tables or keeps them built).
    func reset() {
        secondary.removeAll()
        primaryKeys.removeAll()
        madeTables.removeAll()
        uniqueKeys.removeAll()
    }

    /// Runs a schema change's statements but its `CREATE INDEX`es, which wait for the commit,
    /// and drops the primary keys of the join tables it creates until the commit.
    func create(_ diff: SchemaDiff) throws {
        let statements = try diff.statements(PostgresSchema.self)
        guard !statements.isEmpty else { return }
        let now = statements.filter { !$0.hasPrefix("CREATE INDEX ") }
        secondary += statements.filter { $0.hasPrefix("CREATE INDEX ") }
        try connection.execute(now.joined(separator: ";\n"))
        for case .createTable(let table) in diff.changes { madeTables.insert(table.name) }
        for case .createJoin(let join) in diff.changes {
            madeTables.insert(join.name)
            primaryKeys[join.name] = try dropConstraints(of: join.name, kind: "p").first
        }
    }

    /// Whether the transaction made `table` (an entity's or a join table).
    func made(_ table: String) -> Bool { madeTables.contains(table) }

    /// Drops the unique constraints of `table`, a table the transaction made, until
    /// ``restoreUniqueKeys(of:)``: its rows then go into the heap alone, and each constraint is
    /// built once over all of them (a million tasks: 1.33 s with it, 0.90 s plus 0.15 s after).
    func setAsideUniqueKeys(of table: String) throws(PostgresError) {
        uniqueKeys[table] = try dropConstraints(of: table, kind: "u")
    }

    /// Adds back the unique constraints ``setAsideUniqueKeys(of:)`` dropped from `table`.
    func restoreUniqueKeys(of table: String) throws(PostgresError) {
        guard let statements = uniqueKeys.removeValue(forKey: table), !statements.isEmpty else { return }
        try connection.execute(statements.joined(separator: ";\n"))
    }

    /// Drops `table`'s constraints of one kind (`p` primary key, `u` unique).
    ///
    /// - Returns: the statements that add them back, under the same names.
    private func dropConstraints(of table: String, kind: String) throws(PostgresError) -> [String] {
        let quoted = PostgresSchema.quote(table)
        let result = try connection.query(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                + "WHERE conrelid = $1::regclass AND contype = $2 ORDER BY conname", [quoted, kind])
        var restore: [String] = []
        for row in result.rows {
            guard row.count == 2, let name = row[0], let definition = row[1] else { continue }
            let constraint = PostgresSchema.quote(name)
            try connection.execute("ALTER TABLE \(quoted) DROP CONSTRAINT \(constraint)")
            restore.append("ALTER TABLE \(quoted) ADD CONSTRAINT \(constraint) \(definition)")
        }
        return restore
    }

    /// Builds every index that waits, before the transaction commits.
    func buildAll() throws(PostgresError) {
        let statements = primaryKeys.values.sorted() + secondary
        reset()
        guard !statements.isEmpty else { return }
        try connection.execute(statements.joined(separator: ";\n"))
    }
}
