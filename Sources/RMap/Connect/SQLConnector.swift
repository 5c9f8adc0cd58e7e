/// The connect stage in the store's engine: every connection step of the model, in dependency
/// order (``ConnectionOrder``), over the run's merged rows (``RowCollapse``) and, for tables the
/// run did not fetch completely, the stored rows (docs/mapping.md, "Connections").
///
/// A step's links go to a temporary table (``StepLinks``) when something keeps them: a join
/// table (written by ``LinkMerge`` with the rest of the merge, or by the step itself into a join
/// table that holds nothing yet: ``DirectJoinLinks``), a foreign-key column on the
/// destinations (the inverse of a to-many, set here on the run's destination rows: the last
/// source to claim one wins), or a key path reading through them. A to-one connected by the
/// source's own attribute keeps nothing more than that attribute's column: its step only looks
/// for dangling references and for keys that match several objects (``UnresolvedReferences``).
struct SQLConnector {
    let layout: StageLayout
    let dialect: any SQLDialect.Type
    /// The root entities the run fetched completely: their stored rows are no destinations.
    let complete: Set<Int>
    let steps: [ConnectionStep]
    /// Whether every step keeps its links (for stages to follow them).
    let keepsEveryLink: Bool
    /// The steps whose links tables exist, once ``connect(on:)`` ran.
    private(set) var kept = Set<Int>()
    /// The steps whose links went straight into their join table (``DirectJoinLinks``).
    private(set) var linkedDirectly = Set<Int>()
    /// The names of the relationships some key path reads through.
    private let readThrough: Set<String>

    init(layout: StageLayout, dialect: any SQLDialect.Type, completeEntities: Set<String>, keepsEveryLink: Bool = false)
    {
        self.layout = layout
        self.dialect = dialect
        self.keepsEveryLink = keepsEveryLink
        let schema = layout.schema
        complete = Set(
            schema.roots.filter { root in schema.family(of: root).contains { completeEntities.contains($0.name) } }
                .map(\.index))
        steps = ConnectionOrder.steps(of: schema)
        readThrough = Set(steps.flatMap { $0.pathRelationships(schema: schema).map(\.relationship) })
    }

    func q(_ name: String) -> String { dialect.quote(name) }

    /// Resolves every step: links tables filled, inverse foreign keys set, dangling references and
    /// to-ones matching several objects reported.
    mutating func connect(on engine: any SQLEngine) throws -> ConnectReport {
        var report = ConnectReport()
        let unresolved = try UnresolvedReferences(dialect: dialect, origins: OriginNames(engine: engine))
        try makeDestinationKeys(on: engine)
        for (number, step) in steps.enumerated() {
            let partial = !complete.contains(step.destination.rootIndex)
            if let connect = ForeignKeyConnect(
                step: step, number: number, layout: layout, dialect: dialect, partial: partial)
            {
                guard needsLinks(step) else {
                    report.dangling += try unresolved.dangling(connect, on: engine)
                    continue
                }
                if !keepsLinksBesidesJoin(step), let direct = DirectJoinLinks(step: step, steps: steps, layout: layout),
                    let written = try direct.write(connect, on: engine)
                {
                    if !step.matchesIdentity || written.linked != written.keys {
                        report.dangling += try unresolved.dangling(connect, on: engine)
                    }
                    linkedDirectly.insert(number)
                    continue
                }
                try engine.execute(connect.links.create(dialect))
                var linked = 0
                for (sql, parameters) in connect.fill() { linked += try engine.execute(sql, parameters) }
                // Each key finds one destination at most: as many links as keys leave none dangling.
                let keys = connect.keyCount()
                if try !step.matchesIdentity || linked != engine.count(keys.sql, keys.parameters) {
                    report.dangling += try unresolved.dangling(connect, on: engine)
                }
                if step.relationship.kind == .toOne { report.errors += try unresolved.ambiguous(connect, on: engine) }
                try setInverseKeys(step, links: connect.links, on: engine)
                kept.insert(number)
                continue
            }
            let runLinks = RunLinks(layout: layout, dialect: dialect, steps: steps, kept: kept)
            guard
                let path = KeyPathConnect(
                    step: step, number: number, layout: layout, dialect: dialect, partial: partial, runLinks: runLinks)
            else { continue }
            try engine.execute(path.links.create(dialect))
            for (sql, parameters) in path.fill() { try engine.execute(sql, parameters) }
            if let query = path.dangling() {
                report.dangling += try unresolved.dangling(query, step: step, sourceStage: path.sourceStage, on: engine)
            }
            kept.insert(number)
            if step.relationship.kind == .toOne { report.errors += try unresolved.ambiguous(path, on: engine) }
            try setInverseKeys(step, links: path.links, on: engine)
            try setOwnKeys(path, on: engine)
        }
        return report
    }

    /// Sets a key path's own foreign-key column (`lead_id`) on the sources whose path resolved:
    /// the destination's identity, or null when it reached nothing.
    private func setOwnKeys(_ path: KeyPathConnect, on engine: any SQLEngine) throws {
        let binding = layout.store.bindings[path.step.source.index]
        guard let columns = binding.foreignKeys.first(where: { $0.relationship == path.step.position })?.columns else {
            return
        }
        let stage = path.sourceStage
        let rows = q(stage.rowsName)
        let links = path.links
        let matches = zip(stage.table.identityNames, links.sourceNames)
            .map { "l.\(q($1)) = \(rows).\(q($0))" }.joined(separator: " AND ")
        let resolved = zip(stage.table.identityNames, links.sourceNames)
            .map { "x.\(q($1)) = \(rows).\(q($0))" }.joined(separator: " AND ")
        var sets = zip(columns, links.destinationNames).map { column, destination in
            "\(q(stage.table.columns[column].name)) = (SELECT l.\(q(destination)) FROM \(q(links.name)) AS l WHERE \(matches) "
                + "ORDER BY l.\(q("_pos")) LIMIT 1)"
        }
        sets += StagedSQL(stage: stage, dialect: dialect).markPresent(columns, rows)
        try engine.execute(
            "UPDATE \(rows) SET \(sets.joined(separator: ", ")) WHERE EXISTS (SELECT 1 FROM \(q(path.sourcesName)) AS x WHERE \(resolved))"
        )
    }

    /// Drops the links and sources tables.
    func drop(on engine: any SQLEngine) {
        for number in steps.indices {
            _ = try? engine.execute("DROP TABLE IF EXISTS \(q(StepLinks.name(number)))")
            _ = try? engine.execute("DROP TABLE IF EXISTS \(q("_rmap_sources_\(number)"))")
        }
        for position in destinationKeys.keys {
            _ = try? engine.execute("DROP TABLE IF EXISTS \(q(DestinationKeys.name(position)))")
        }
    }

    /// The tables whose staged destinations foreign keys find by identity (``DestinationKeys``), by position.
    private var destinationKeys: [Int: DestinationKeys] {
        var found: [Int: DestinationKeys] = [:]
        for (number, step) in steps.enumerated() {
            let connect = ForeignKeyConnect(
                step: step, number: number, layout: layout, dialect: dialect, partial: false)
            if let keys = connect?.destinationKeys { found[keys.stage.position] = keys }
        }
        return found
    }

    /// Makes the narrow keys of the tables foreign keys find destinations in.
    private func makeDestinationKeys(on engine: any SQLEngine) throws {
        for (_, keys) in destinationKeys.sorted(by: { $0.key < $1.key }) {
            for sql in keys.create() { try engine.execute(sql) }
            try engine.gatherStatistics(of: keys.name)
        }
    }

    /// Whether a step's links are kept: a join table, an inverse's foreign key, a to-one that may
    /// match several destinations, or a key path through the relationship.
    func needsLinks(_ step: ConnectionStep) -> Bool {
        layout.store.bindings[step.source.index].joins.contains { $0.relationship == step.position }
            || keepsLinksBesidesJoin(step)
    }

    /// Whether a step's links are kept for something else than a join table.
    private func keepsLinksBesidesJoin(_ step: ConnectionStep) -> Bool {
        if keepsEveryLink { return true }
        if inverseKeys(step) != nil { return true }
        if step.relationship.kind == .toOne, !step.matchesIdentity { return true }
        return readThrough.contains(step.relationship.name)
    }

    /// The foreign-key columns on the destination that hold the inverse of a to-many step.
    private func inverseKeys(_ step: ConnectionStep) -> (binding: EntityBinding, columns: [Int])? {
        guard step.relationship.kind == .toMany, let inverse = step.relationship.inverse else { return nil }
        for member in layout.schema.family(of: step.destination) {
            guard let position = member.relationshipIndex(inverse) else { continue }
            let binding = layout.store.bindings[member.index]
            if let columns = binding.foreignKeys.first(where: { $0.relationship == position })?.columns {
                return (binding, columns)
            }
        }
        return nil
    }

    /// Sets the inverse foreign key of the run's destination rows to the last source that claims them.
    private func setInverseKeys(_ step: ConnectionStep, links: StepLinks, on engine: any SQLEngine) throws {
        guard let (binding, columns) = inverseKeys(step) else { return }
        let stage = layout.tables[binding.table]
        let rows = q(stage.rowsName)
        let matches = zip(stage.table.identityNames, links.destinationNames)
            .map { "l.\(q($1)) = \(rows).\(q($0))" }.joined(separator: " AND ")
        var sets: [String] = []
        for (column, source) in zip(columns, links.sourceNames) {
            sets.append(
                "\(q(stage.table.columns[column].name)) = (SELECT l.\(q(source)) FROM \(q(links.name)) AS l "
                    + "WHERE \(matches) ORDER BY l.\(q("_seq")) DESC LIMIT 1)")
        }
        sets += StagedSQL(stage: stage, dialect: dialect).markPresent(columns, rows)
        try engine.execute(
            "UPDATE \(rows) SET \(sets.joined(separator: ", ")) WHERE EXISTS (SELECT 1 FROM \(q(links.name)) AS l WHERE \(matches))"
        )
    }
}
