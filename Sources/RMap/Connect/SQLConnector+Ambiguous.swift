/// The ambiguous to-ones of a ``SQLConnector`` step: sources whose keys or key path matched
/// several destinations, reported and left unconnected.
extension SQLConnector {
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
                    attributes: connect.step.keyAttributes, values: [searched.count == 1 ? searched[0] : .array(searched)],
                    matches: Int(count), origin: origins.origin(row[1], row[2])))
        }
        if !errors.isEmpty {
            try engine.execute(
                "DELETE FROM \(q(links.name)) WHERE (\(sources)) IN (SELECT \(sources) FROM \(q(links.name)) GROUP BY \(sources) HAVING count(*) > 1)")
        }
        return errors
    }
}
