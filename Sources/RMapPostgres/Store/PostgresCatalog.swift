import RMap

/// What a PostgreSQL connection's current schema holds, read from its catalog: the columns of
/// tables, and what ``PostgresBaseCapture`` still has to create there.
///
/// ```swift
/// let catalog = PostgresCatalog(connection: connection)
/// try catalog.orderedColumns(of: "people")   // ["id", "name"]
/// ```
struct PostgresCatalog {
    /// The connection whose schema is read.
    let connection: PostgresConnection

    /// The column names, in order, of those `tables` that exist in the current schema.
    func columns(of tables: [String]) throws -> [String: [String]] {
        let result = try connection.query(
            "SELECT table_name, column_name FROM information_schema.columns "
                + "WHERE table_schema = current_schema() AND table_name = ANY($1::text[]) "
                + "ORDER BY table_name, ordinal_position",
            [PostgresValueText.arrayLiteral(tables.map(Value.string))])
        var columns: [String: [String]] = [:]
        for row in result.rows {
            guard let table = row[0], let column = row[1] else { continue }
            columns[table, default: []].append(column)
        }
        return columns
    }

    /// What the schema lacks of ``PostgresBaseCapture``'s tables, functions and triggers for
    /// `layout` (a function whose text differs, e.g. after a column was added, is replaced).
    func captureStatements(_ layout: StoreLayout) throws -> [String] {
        let tables = layout.tables.filter { !$0.identity.isEmpty }
        let columns = try columns(of: tables.flatMap { [$0.name, PostgresBaseCapture.insertedName($0)] })
        let schema = "(SELECT oid FROM pg_namespace WHERE nspname = current_schema())"
        let functions = try connection.query(
            "SELECT proname, prosrc FROM pg_proc WHERE pronamespace = \(schema) AND proname LIKE '\\_rmap\\_edit\\_%'")
        var bodies: [String: String] = [:]
        for row in functions.rows {
            if let name = row[0], let body = row[1] { bodies[name] = body }
        }
        let triggered = Set(
            try connection.query(
                "SELECT c.relname FROM pg_trigger AS t JOIN pg_class AS c ON c.oid = t.tgrelid "
                    + "WHERE c.relnamespace = \(schema) AND t.tgname = $1", [PostgresBaseCapture.triggerName]
            ).rows.compactMap { $0[0] })
        var statements: [String] = []
        /// The function of table `name` with `body`, and its trigger on `events`, where missing or different.
        func capture(_ name: String, events: String, body: String) {
            let function = PostgresBaseCapture.functionName(name)
            if bodies[function] != body { statements.append(PostgresBaseCapture.createFunction(function, body: body)) }
            if !triggered.contains(name) {
                statements.append(PostgresBaseCapture.createTrigger(on: name, events: events, function: function))
            }
        }
        for table in tables {
            let stored = (columns[table.name] ?? table.columns.map(\.name)).filter { $0 != PostgresSchema.rowid }
            if columns[PostgresBaseCapture.insertedName(table)] == nil {
                statements += PostgresBaseCapture.createInserted(table, columns: stored)
            }
            capture(
                table.name, events: "INSERT OR UPDATE OR DELETE",
                body: PostgresBaseCapture.entityFunction(table, columns: stored))
            for join in layout.joinTables(of: table) where join.sourceColumnCount == table.identity.count {
                capture(
                    join.name, events: "INSERT OR DELETE",
                    body: PostgresBaseCapture.joinFunction(join, source: table, columns: stored))
            }
        }
        return statements
    }

    /// The columns of one table, in order: the connection's temporary table of that name, else
    /// the current schema's table (as an unqualified name resolves); empty when neither exists.
    func orderedColumns(of table: String) throws -> [String] {
        try connection.query(
            "SELECT a.attname FROM pg_attribute AS a WHERE a.attrelid = (SELECT c.oid FROM pg_class AS c "
                + "WHERE c.relname = $1 AND c.relkind IN ('r', 'p', 'v') AND (c.relnamespace = pg_my_temp_schema() "
                + "OR c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())) "
                + "ORDER BY c.relnamespace = pg_my_temp_schema() DESC LIMIT 1) "
                + "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            [table]
        ).rows.compactMap { $0[0] }
    }
}
