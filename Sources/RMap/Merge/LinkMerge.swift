/// Writes the run's links into the store's join tables, set by set (docs/mapping.md, "What a
/// run writes"): for each source that named a relationship's whole set (its payload carried
/// the connecting key, or the nested relationship's key), the links it no longer has are
/// deleted and the new ones inserted; links that stay are not rewritten. `assignment: union`
/// only adds, except that a nested relationship's `null` empties the set (the links of later
/// occurrences then added). An `ordered` relationship numbers each source's links from 0 in payload order.
struct LinkMerge {
    let layout: StageLayout
    let dialect: any SQLDialect.Type
    let connector: SQLConnector

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// One set of links for a join table: a query yielding source identity, destination identity
    /// and place (`s0.., d0.., _pos`), and a condition on merged row `s` for the sources it
    /// replaces (none for a union's connections, which only add).
    private struct LinkSource {
        var query: String
        var parameters: [Value]
        var replaced: PredicateSQL?
        /// The step's links table the query reads whole, if it reads one.
        var table: StepLinks?
    }

    /// Writes every join table's links.
    func write(on engine: any SQLEngine) throws {
        for (position, join) in layout.store.joinTables.enumerated() {
            let sources = linkSources(join: position)
            guard !sources.isEmpty else { continue }
            // A join table that holds no link yet has none to keep or to leave out.
            let empty = try !engine.exists("SELECT 1 FROM \(q(join.name))")
            for source in sources { try write(source, into: join, empty: empty, on: engine) }
        }
    }

    private func linkSources(join position: Int) -> [LinkSource] {
        var sources: [LinkSource] = []
        for (number, step) in connector.steps.enumerated() where !connector.linkedDirectly.contains(number) {
            let binding = layout.store.bindings[step.source.index]
            guard binding.joins.contains(where: { $0.relationship == step.position && $0.join == position }) else {
                continue
            }
            if let connect = ForeignKeyConnect(
                step: step, number: number, layout: layout, dialect: dialect, partial: false)
            {
                sources.append(
                    LinkSource(
                        query: select(connect.links), parameters: [],
                        replaced: layout.store.joinTables[position].union ? nil : connect.sources("s"),
                        table: connect.links))
            } else if let path = KeyPathConnect(
                step: step, number: number, layout: layout, dialect: dialect, partial: false,
                runLinks: RunLinks(layout: layout, dialect: dialect, steps: [], kept: []))
            {
                let resolved = zip(path.sourceStage.table.identityNames, path.links.sourceNames)
                    .map { "x.\(q($1)) = s.\(q($0))" }.joined(separator: " AND ")
                sources.append(
                    LinkSource(
                        query: select(path.links), parameters: [],
                        replaced: layout.store.joinTables[position].union
                            ? nil
                            : PredicateSQL(
                                sql: "EXISTS (SELECT 1 FROM \(q(path.sourcesName)) AS x WHERE \(resolved))",
                                parameters: []),
                        table: path.links))
            }
        }
        if let nested = layout.nestedLinks.first(where: { $0.join == position }) {
            sources += nestedSources(nested)
        }
        return sources
    }

    /// Every link of a step's links table.
    private func select(_ links: StepLinks) -> String {
        let columns = (links.sourceNames + links.destinationNames + ["_pos"]).map { q($0) }.joined(separator: ", ")
        return "SELECT \(columns) FROM \(q(links.name))"
    }

    /// The links nested records name: by the parent's last occurrence that named the set
    /// (`replace`), or by every occurrence after the last `null` (`union`, whose slot says `null`).
    private func nestedSources(_ nested: StageNestedLinks) -> [LinkSource] {
        let join = nested.layout
        var found: [LinkSource] = []
        for type in layout.schema.types {
            let binding = layout.store.bindings[type.index]
            guard let entry = binding.joins.first(where: { $0.join == nested.join }),
                type.mapping.relationships[entry.relationship].nested
            else { continue }
            let stage = layout.tables[binding.table]
            guard let slot = stage.assignedSlot(join.relationship) else { continue }
            let sourceCount = join.sourceColumnCount
            let columns = join.columns.map(\.name)
            let sourceNames = columns.prefix(sourceCount).enumerated().map { "n.\(q($1)) AS \(q("s\($0)"))" }
            let destinationNames = columns[sourceCount..<(join.ordered ? columns.count - 1 : columns.count)]
                .enumerated().map { "n.\(q($1)) AS \(q("d\($0)"))" }
            let place = join.ordered ? "n.\(q("position"))" : "0"
            let parent = zip(stage.table.identityNames, columns.prefix(sourceCount))
                .map { "p.\(q($0)) = n.\(q($1))" }.joined(separator: " AND ")
            let occurrence = nested.kept("n", by: "p", slot: slot, dialect: dialect)
            let sql = StagedSQL(stage: stage, dialect: dialect)
            found.append(
                LinkSource(
                    query: "SELECT "
                        + (sourceNames + destinationNames + ["\(place) AS \(q("_pos"))"]).joined(separator: ", ")
                        + " FROM \(q(nested.name)) AS n JOIN \(q(stage.rowsName)) AS p ON \(parent) AND \(occurrence) "
                        + "WHERE p.\(q("_entity")) = \(type.index)",
                    parameters: [],
                    replaced: PredicateSQL(
                        sql: "s.\(q("_entity")) = \(type.index) AND \(sql.present(slot, "s"))", parameters: [])))
        }
        return found
    }

    /// Replaces (or, for a union, adds to) the links of the sources `source` names.
    private func write(_ source: LinkSource, into join: JoinTableLayout, empty: Bool, on engine: any SQLEngine) throws {
        let table = layout.store.tables.first { $0.name == join.sourceTable }!
        let stage = layout.tables[layout.store.tables.firstIndex { $0.name == join.sourceTable }!]
        let sourceColumns = join.sourceColumns.map(\.name)
        let destinationColumns = join.destinationColumns.map(\.name)
        let sourceCount = sourceColumns.count
        let links = "(\(source.query))"
        // Each source's links once, at their first place, numbered from 0 (when ordered).
        let names = (0..<sourceCount).map { "s\($0)" } + (0..<destinationColumns.count).map { "d\($0)" }
        let listed = names.map { q($0) }.joined(separator: ", ")
        let numbered: String
        if join.ordered {
            let grouped = "SELECT \(listed), min(\(q("_pos"))) AS \(q("_pos")) FROM \(links) AS l GROUP BY \(listed)"
            let partition = (0..<sourceCount).map { q("s\($0)") }.joined(separator: ", ")
            numbered =
                "SELECT \(listed), row_number() OVER (PARTITION BY \(partition) ORDER BY \(q("_pos"))) - 1 AS \(q("position")) "
                + "FROM (\(grouped)) AS g"
        } else {
            numbered = "SELECT DISTINCT \(listed) FROM \(links) AS l"
        }
        let wanted = "(\(numbered))"
        // A source a tombstone deleted gets no links; without tombstones every source is stored.
        let existing = table.identityNames.enumerated().map { "t.\(q($1)) = w.\(q("s\($0)"))" }
        let sourceExists =
            layout.hasTombstones(table: stage.position)
            ? "EXISTS (SELECT 1 FROM \(q(table.name)) AS t WHERE \(existing.joined(separator: " AND ")))" : "1 = 1"
        let sameLink =
            (sourceColumns.enumerated().map { "j.\(q($1)) = w.\(q("s\($0)"))" }
            + destinationColumns.enumerated().map { "j.\(q($1)) = w.\(q("d\($0)"))" }
            + (join.ordered ? ["j.\(q("position")) = w.\(q("position"))"] : [])).joined(separator: " AND ")
        if let replacing = source.replaced, !empty {
            try deleteStale(
                from: join, of: stage, replaced: replacing, source: source, wanted: wanted, sameLink: sameLink,
                on: engine)
        }
        let insertedColumns = sourceColumns + destinationColumns + (join.ordered ? ["position"] : [])
        let selected =
            (0..<sourceCount).map { "w.\(q("s\($0)"))" } + (0..<destinationColumns.count).map { "w.\(q("d\($0)"))" }
            + (join.ordered ? ["w.\(q("position"))"] : [])
        let absent = empty ? "" : " AND NOT EXISTS (SELECT 1 FROM \(q(join.name)) AS j WHERE \(sameLink))"
        let missing = "FROM \(wanted) AS w WHERE \(sourceExists)\(absent)"
        guard try engine.exists("SELECT 1 \(missing)", source.parameters) else { return }
        try engine.willInsert(into: join.name) {
            try engine.count("SELECT count(*) FROM \(links) AS l", source.parameters)
        }
        try engine.execute(
            "INSERT INTO \(q(join.name)) (\(dialect.list(insertedColumns))) SELECT \(selected.joined(separator: ", ")) \(missing)",
            source.parameters)
        try engine.didInsert(into: join.name)
    }

    /// Deletes the links of the sources `replaced` names (rows of `stage`) that `wanted` no longer has.
    ///
    /// An engine that hashes joins (PostgreSQL) hashes the stored links against the wanted ones.
    /// SQLite reads the stored links through the run's merged rows (`s`), in identity order, and
    /// looks each up in the wanted links in their own order: read from the join table's side, the
    /// nested benchmark's second run spent 3.6 s of 10 on this check alone. An unordered step's
    /// links need no `DISTINCT` to be looked up there, only an index. PostgreSQL is asked the
    /// first way: asked the second, inside `EXISTS`, it planned nested loops over the run's links
    /// for each stored link (the same run stopped after ten minutes).
    private func deleteStale(
        from join: JoinTableLayout, of stage: StageTable, replaced: PredicateSQL, source: LinkSource, wanted: String,
        sameLink: String, on engine: any SQLEngine
    ) throws {
        let sourceColumns = join.sourceColumns.map(\.name)
        let storedOfSource = sourceColumns.enumerated().map { "j.\(q($1)) = s.\(q(stage.table.identityNames[$0]))" }
            .joined(separator: " AND ")
        let parameters = replaced.parameters + source.parameters
        guard !dialect.hashesJoins else {
            let stale =
                "FROM \(q(join.name)) AS j WHERE EXISTS (SELECT 1 FROM \(q(stage.rowsName)) AS s WHERE \(storedOfSource) "
                + "AND \(replaced.sql)) AND NOT EXISTS (SELECT 1 FROM \(wanted) AS w WHERE \(sameLink))"
            if try engine.exists("SELECT 1 \(stale)", parameters) { try engine.execute("DELETE \(stale)", parameters) }
            return
        }
        var lookedUp = wanted
        if !join.ordered, let links = source.table {
            lookedUp = "(\(source.query))"
            try engine.execute(
                "CREATE INDEX IF NOT EXISTS \(q("\(links.name)_link")) ON \(q(links.name)) "
                    + "(\(dialect.list(links.sourceNames + links.destinationNames)))")
        }
        let stale =
            "FROM \(q(stage.rowsName)) AS s JOIN \(q(join.name)) AS j ON \(storedOfSource) "
            + "WHERE \(replaced.sql) AND NOT EXISTS (SELECT 1 FROM \(lookedUp) AS w WHERE \(sameLink))"
        guard try engine.exists("SELECT 1 \(stale)", parameters) else { return }
        // A link's source and destination are its key: a position may be null (a stored table that
        // has just been ordered), and null is in no `IN`.
        let linkColumns = sourceColumns + join.destinationColumns.map(\.name)
        try engine.execute(
            "DELETE FROM \(q(join.name)) WHERE (\(dialect.list(linkColumns))) IN "
                + "(SELECT \(linkColumns.map { "j.\(q($0))" }.joined(separator: ", ")) \(stale))",
            parameters)
    }
}
