/// The references of a connection step that reach no single object, reported with the record they
/// came from: dangling ones, whose keys matched nothing (found by an anti-join), and to-ones whose
/// keys or key path matched several destinations, which are left unconnected.
struct UnresolvedReferences {
    let dialect: any SQLDialect.Type
    /// The payloads' names, read once when the connect stage starts, for the records reported.
    let origins: OriginNames

    private func q(_ name: String) -> String { dialect.quote(name) }

    // MARK: - Dangling

    /// The dangling references of one step, one per source listing its keys that matched nothing.
    func dangling(_ connect: ForeignKeyConnect, on engine: any SQLEngine) throws -> [DanglingReference] {
        try dangling(connect.dangling(), step: connect.step, sourceStage: connect.sourceStage, on: engine)
    }

    /// The dangling references a query of a step finds (``ForeignKeyConnect/dangling()``): rows of
    /// the source's last occurrence, identity and the values that matched nothing.
    func dangling(
        _ query: (sql: String, parameters: [Value], values: [AttributeType]), step: ConnectionStep,
        sourceStage: StageTable, on engine: any SQLEngine
    ) throws -> [DanglingReference] {
        let (sql, parameters, valueTypes) = query
        let table = sourceStage.table
        let identityTypes = table.identity.map { table.columns[$0].type }
        var found: [DanglingReference] = []
        var lastSeq: Value?
        try engine.query(sql, parameters, types: [.int, .int, .int] + identityTypes + valueTypes) { row in
            let identityEnd = 3 + identityTypes.count
            let values = Array(row[identityEnd...])
            let value = values.count == 1 ? values[0] : .array(values)
            if row[0] == lastSeq, !found.isEmpty {
                found[found.count - 1].values.append(value)
                return
            }
            lastSeq = row[0]
            found.append(
                DanglingReference(
                    entity: step.source.name, identity: IdentityKey(Array(row[3..<identityEnd])),
                    relationship: step.relationship.name, destination: step.destination.name,
                    attributes: step.keyAttributes, values: [value], origin: origins.origin(row[1], row[2])))
        }
        return found
    }

    // MARK: - Ambiguous

    /// The to-one key-path sources that reached several destinations: reported, and left unconnected.
    func ambiguous(_ path: KeyPathConnect, on engine: any SQLEngine) throws -> [ConnectError] {
        let links = path.links
        let sources = dialect.list(links.sourceNames)
        let several = "SELECT \(sources) FROM \(q(links.name)) GROUP BY \(sources) HAVING count(*) > 1"
        let stage = path.sourceStage
        let identityTypes = stage.table.identity.map { stage.table.columns[$0].type }
        let match = zip(stage.table.identityNames, links.sourceNames).map { "s.\(q($0)) = l.\(q($1))" }
            .joined(separator: " AND ")
        var errors: [ConnectError] = []
        try engine.query(
            "SELECT s.\(q("_seq")), s.\(q("_origin")), s.\(q("_record")), "
                + (stage.table.identityNames.map { "s.\(q($0))" } + links.destinationNames.map { "l.\(q($0))" })
                .joined(separator: ", ")
                + " FROM \(q(links.name)) AS l JOIN \(q(stage.rowsName)) AS s ON \(match) WHERE (\(links.sourceNames.map { "l.\(q($0))" }.joined(separator: ", "))) IN (\(several)) "
                + "ORDER BY s.\(q("_seq")), l.\(q("_pos"))",
            [], types: [.int, .int, .int] + identityTypes + links.destination.map(\.type)
        ) { row in
            let identityEnd = 3 + identityTypes.count
            let identity = IdentityKey(Array(row[3..<identityEnd]))
            let reached = Array(row[identityEnd...])
            let value: Value = reached.count == 1 ? reached[0] : .array(reached)
            if let last = errors.last, last.identity == identity {
                errors[errors.count - 1].values.append(value)
                errors[errors.count - 1].matches += 1
                return
            }
            errors.append(
                ConnectError(
                    entity: path.step.source.name, identity: identity, relationship: path.step.relationship.name,
                    destination: path.step.destination.name, attributes: [], values: [value], matches: 1,
                    origin: origins.origin(row[1], row[2])))
        }
        if !errors.isEmpty { try engine.execute("DELETE FROM \(q(links.name)) WHERE (\(sources)) IN (\(several))") }
        return errors
    }

    /// The to-one sources whose keys matched several destinations: reported, and left unconnected.
    func ambiguous(_ connect: ForeignKeyConnect, on engine: any SQLEngine) throws -> [ConnectError] {
        let links = connect.links
        let sources = dialect.list(links.sourceNames)
        let stage = connect.sourceStage
        let match = zip(stage.table.identityNames, links.sourceNames).map { "s.\(q($0)) = a.\(q($1))" }
            .joined(separator: " AND ")
        let values = connect.pairs.map { "s.\(q(stage.table.columns[$0.source].name))" }
        let types = connect.pairs.map { stage.table.columns[$0.source].type }
        let identityTypes = stage.table.identity.map { stage.table.columns[$0].type }
        var errors: [ConnectError] = []
        try engine.query(
            "SELECT a.n, s.\(q("_origin")), s.\(q("_record")), "
                + (stage.table.identityNames.map { "s.\(q($0))" } + values).joined(separator: ", ")
                + " FROM (SELECT \(sources), count(*) AS n FROM \(q(links.name)) GROUP BY \(sources) HAVING count(*) > 1) AS a "
                + "JOIN \(q(stage.rowsName)) AS s ON \(match)",
            [], types: [.int, .int, .int] + identityTypes + types
        ) { row in
            guard case .int(let count) = row[0] else { return }
            let identityEnd = 3 + identityTypes.count
            let searched = Array(row[identityEnd...])
            errors.append(
                ConnectError(
                    entity: connect.step.source.name, identity: IdentityKey(Array(row[3..<identityEnd])),
                    relationship: connect.step.relationship.name, destination: connect.step.destination.name,
                    attributes: connect.step.keyAttributes,
                    values: [searched.count == 1 ? searched[0] : .array(searched)],
                    matches: Int(count), origin: origins.origin(row[1], row[2])))
        }
        if !errors.isEmpty {
            try engine.execute(
                "DELETE FROM \(q(links.name)) WHERE (\(sources)) IN (SELECT \(sources) FROM \(q(links.name)) GROUP BY \(sources) HAVING count(*) > 1)"
            )
        }
        return errors
    }
}
