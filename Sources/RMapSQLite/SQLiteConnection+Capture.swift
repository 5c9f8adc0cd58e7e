import RMap

extension SQLiteConnection {
    /// What the file lacks of ``SQLiteBaseCapture``'s tables and triggers for `layout` (a trigger
    /// whose text differs, e.g. after a column was added, is made again).
    func captureStatements(_ layout: StoreLayout) throws -> [String] {
        var tables: Set<String> = []
        var triggers: [String: String] = [:]
        for row in try query("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger')") {
            guard row.count == 3, case .text(let type) = row[0], case .text(let name) = row[1] else { continue }
            if type == "table" {
                tables.insert(name)
            } else if case .text(let sql) = row[2] {
                triggers[name] = sql
            }
        }
        var statements: [String] = []
        if !tables.contains(SQLiteBaseCapture.ownWrites) { statements.append(SQLiteBaseCapture.createOwnWrites) }
        for table in layout.tables where !table.identity.isEmpty {
            // The table's own columns, in order: those of the layout until the schema diff has run.
            let stored = tables.contains(table.name) ? try orderedColumns(of: table.name) : table.columns.map(\.name)
            if !tables.contains(SQLiteBaseCapture.insertedName(table)) {
                statements += SQLiteBaseCapture.createInserted(table, columns: stored)
            }
            for (name, sql) in SQLiteBaseCapture.triggers(table, columns: stored, joins: layout.joinTables(of: table))
            where triggers[name] != sql {
                if triggers[name] != nil { statements.append("DROP TRIGGER \(SQLiteSchema.quote(name))") }
                statements.append(sql)
            }
        }
        return statements
    }

    /// The columns of a table, in order; empty when the file has no such table.
    func orderedColumns(of table: String) throws -> [String] {
        try query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.string(table)]).compactMap {
            if case .text(let name) = $0.first { name } else { nil }
        }
    }
}
