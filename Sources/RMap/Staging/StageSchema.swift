/// The statements that make and drop the run's staging tables (``StageLayout``) in an engine.
///
/// Staging tables are temporary: private to the run's connection, written without the
/// store's journal, and dropped when the run ends (or the connection closes). Creating them
/// touches none of the store's own tables, so a run stages its records without the write lock
/// and takes it only to merge (``RunMerge``).
enum StageSchema {
    /// The payloads' names by number: `_rmap_origins(_origin, _name)`.
    static let originsName = "_rmap_origins"
    static let originColumns = [ColumnLayout(name: "_origin", type: .int), ColumnLayout(name: "_name", type: .string)]

    /// Every staging table's `CREATE TEMPORARY TABLE`.
    static func create(_ layout: StageLayout, dialect: any SQLDialect.Type) -> [String] {
        // Runs join every object to its payload's name by number.
        let origins = originColumns.map { dialect.definition($0) } + ["PRIMARY KEY (\(dialect.quote("_origin")))"]
        var statements = [table(originsName, definitions: origins, dialect)]
        for stage in layout.tables {
            // An occurrence's `_seq` is unique: the rows in arrival order, found by their number.
            let columns = stage.stageColumns.map {
                $0.name == "_seq" ? dialect.sequenceDefinition($0.name) : dialect.definition($0)
            }
            statements.append(table(stage.stageName, definitions: columns, dialect))
        }
        for members in layout.members {
            // Keyed by occurrence and place as they come, where the engine keeps that cheaply;
            // otherwise a plain table, joined by hash (``SQLDialect/keysStagingInOrder``).
            guard dialect.keysStagingInOrder else {
                statements.append(table(members.name, members.columns, dialect))
                continue
            }
            let definitions =
                members.columns.map { dialect.definition($0) } + ["PRIMARY KEY (\(dialect.list(["_seq", "_pos"])))"]
            statements.append(table(members.name, definitions: definitions, dialect) + dialect.keyedTableOptions)
        }
        for links in layout.nestedLinks { statements.append(table(links.name, links.columns, dialect)) }
        return statements
    }

    /// Every staging table's `DROP TABLE IF EXISTS`, the merged rows' included.
    static func drop(_ layout: StageLayout, dialect: any SQLDialect.Type) -> [String] {
        let names =
            [originsName] + layout.tables.flatMap { [$0.stageName, $0.rowsName] } + layout.members.map(\.name)
            + layout.nestedLinks.map(\.name)
        return names.map { "DROP TABLE IF EXISTS \(dialect.quote($0))" }
    }

    static func table(_ name: String, _ columns: [ColumnLayout], _ dialect: any SQLDialect.Type) -> String {
        table(name, definitions: columns.map { dialect.definition($0) }, dialect)
    }

    private static func table(_ name: String, definitions: [String], _ dialect: any SQLDialect.Type) -> String {
        "CREATE TEMPORARY TABLE \(dialect.quote(name)) (\(definitions.joined(separator: ", ")))"
    }
}
