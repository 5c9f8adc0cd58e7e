/// One key-path connection step in SQL (docs/mapping.md, "Key paths"): from each source of the
/// run (exactly the step's entity, meeting `when`), the path's relationships are followed
/// through the run's links (``RunLinks``). A path that ends on a relationship connects to the
/// objects it reaches; one that ends on an attribute reads it on the objects reached (the run's
/// rows) and connects to the destinations whose identity it holds (an array: each member). A
/// path that reaches no object connects to nothing; one whose objects never carried the
/// attribute leaves the relationship as it was: its source is not among ``sourcesName``.
struct KeyPathConnect {
    let step: ConnectionStep
    let links: StepLinks
    let layout: StageLayout
    let dialect: any SQLDialect.Type
    let partial: Bool
    let runLinks: RunLinks

    init?(
        step: ConnectionStep, number: Int, layout: StageLayout, dialect: any SQLDialect.Type, partial: Bool,
        runLinks: RunLinks
    ) {
        guard case .keyPath = step.connection.rule, step.end != nil else { return nil }
        self.step = step
        self.layout = layout
        self.dialect = dialect
        self.partial = partial
        self.runLinks = runLinks
        let source = layout.table(of: step.source).table
        let destination = layout.table(of: step.destination).table
        links = StepLinks(
            number: number, source: source.identity.map { source.columns[$0] },
            destination: destination.identity.map { destination.columns[$0] })
    }

    private func q(_ name: String) -> String { dialect.quote(name) }
    var sourceStage: StageTable { layout.table(of: step.source) }
    var destinationStage: StageTable { layout.table(of: step.destination) }

    /// The temporary table of the sources whose relationship the step sets (the others keep it).
    var sourcesName: String { "_rmap_sources_\(links.number)" }

    /// The sources: the step's entity, meeting `when`.
    func sources(_ alias: String) -> PredicateSQL {
        var condition = PredicateSQL.condition(
            step.connection.sourcePredicate, of: step.source, alias: alias,
            binding: layout.store.bindings[step.source.index], table: sourceStage.table, dialect: dialect)
        condition.sql = "\(alias).\(q("_entity")) = \(step.source.index) AND \(condition.sql)"
        return condition
    }

    /// The path's segments through relationships, and the entity each starts on.
    private var hops: [(entity: EntityType, relationship: String)] {
        var names = step.through
        if case .relationship(let last)? = step.end { names.append(last) }
        var entity = step.source
        var hops: [(EntityType, String)] = []
        for name in names {
            hops.append((entity, name))
            guard
                let next = entity.mapping.relationship(named: name).flatMap({
                    layout.schema.type(named: $0.destination)
                })
            else { break }
            entity = next
        }
        return hops
    }

    /// `FROM` the sources (alias `sources`) joined through every hop, the reached identity's column
    /// names, and the places to order by; `nil` when the run keeps no links for some hop.
    private func reached(_ sources: String = "s") -> (from: String, identity: [String], order: [String])? {
        var from = "\(q(sourceStage.rowsName)) AS \(sources)"
        var previous = sourceStage.table.identityNames.map { "\(sources).\(q($0))" }
        var order: [String] = []
        for (offset, hop) in hops.enumerated() {
            guard let query = runLinks.query(entity: hop.entity, relationship: hop.relationship) else { return nil }
            let alias = "\(sources)l\(offset)"
            let match = previous.enumerated().map { "\(alias).\(q("s\($0)")) = \($1)" }.joined(separator: " AND ")
            from += " JOIN (\(query)) AS \(alias) ON \(match)"
            guard
                let next = hop.entity.mapping.relationship(named: hop.relationship)
                    .flatMap({ layout.schema.type(named: $0.destination) })
            else { return nil }
            previous = (0..<layout.table(of: next).table.identity.count).map { "\(alias).\(q("d\($0)"))" }
            order.append("\(alias).\(q("_pos"))")
        }
        return (from, previous, order)
    }

    /// The entity the last attribute is read on.
    private var readEntity: EntityType? { step.reachedEntity(schema: layout.schema) }

    /// The statements that fill the sources' and links' tables.
    func fill() -> [(sql: String, parameters: [Value])] {
        let source = sources("s")
        let sourceIdentity = sourceStage.table.identityNames.map { "s.\(q($0))" }
        let createSources = StageSchema.table(
            sourcesName, zip(links.sourceNames, links.source).map { ColumnLayout(name: $0, type: $1.type) }, dialect)
        var statements: [(String, [Value])] = [(createSources, [])]
        let intoSources = "INSERT INTO \(q(sourcesName)) (\(dialect.list(links.sourceNames))) "
        guard let path = reached() else {
            // Nothing is reached: every source connects to nothing.
            statements.append(
                (
                    intoSources
                        + "SELECT \(sourceIdentity.joined(separator: ", ")) FROM \(q(sourceStage.rowsName)) AS s WHERE \(source.sql)",
                    source.parameters
                ))
            return statements
        }
        let into = "INSERT INTO \(q(links.name)) (\(dialect.list(links.columns.map(\.name)))) "
        switch step.end {
        case .relationship?:
            statements.append(
                (
                    intoSources
                        + "SELECT \(sourceIdentity.joined(separator: ", ")) FROM \(q(sourceStage.rowsName)) AS s WHERE \(source.sql)",
                    source.parameters
                ))
            statements += destinations(
                from: path.from, reached: path.identity, place: Self.place(path.order), source: source, into: into,
                byKey: nil)
        case .attribute(let name)?:
            guard let readType = readEntity, let attribute = readType.attributeIndex(name) else { return statements }
            let readStage = layout.table(of: readType)
            let column = layout.store.bindings[readType.index].attributeColumns[attribute]
            let readSQL = StagedSQL(stage: readStage, dialect: dialect)
            func read(_ path: (from: String, identity: [String], order: [String]), _ alias: String) -> String {
                let on = readStage.table.identityNames.enumerated().map { "\(alias).\(q($1)) = \(path.identity[$0])" }
                return "\(path.from) JOIN \(q(readStage.rowsName)) AS \(alias) ON \(on.joined(separator: " AND "))"
            }
            let reachedFrom = read(path, "e")
            // The sources whose path reached nothing, or an object that carried the attribute.
            if let inner = reached("s1") {
                statements.append(
                    (
                        intoSources
                            + "SELECT \(sourceIdentity.joined(separator: ", ")) FROM \(q(sourceStage.rowsName)) AS s "
                            + "WHERE \(source.sql) AND (NOT EXISTS (SELECT 1 FROM \(inner.from) WHERE \(selfMatch("s1"))) "
                            + "OR EXISTS (SELECT 1 FROM \(read(inner, "e1")) WHERE \(selfMatch("s1")) AND \(readSQL.present(column, "e1"))))",
                        source.parameters
                    ))
            }
            guard let keyed = keyed(reachedFrom, readStage: readStage, column: column) else { return statements }
            statements += destinations(
                from: keyed.from, reached: [], place: Self.place(path.order + keyed.position), source: source,
                into: into,
                byKey: keyed.keys)
        case nil:
            break
        }
        return statements
    }

    /// A link's place among its source's: the places along the path, the first the most
    /// significant (each after the first below a million).
    private static func place(_ order: [String]) -> String {
        guard let first = order.first else { return "0" }
        return order.dropFirst().reduce(first) { "(\($0)) * 1000000 + \($1)" }
    }

    /// The attribute read on the reached objects (alias `e`) as keys in the destination identity's
    /// domains, one per part: `from` with the members of an array joined, the keys, the value as
    /// read, and the member's place in the array (none for a single value or a composite identity,
    /// whose array holds one identity's values).
    private func keyed(_ reachedFrom: String, readStage: StageTable, column: Int)
        -> (from: String, keys: [String], value: String, type: AttributeType, position: [String])?
    {
        let identity = destinationStage.table.identity
        guard let first = identity.first else { return nil }
        let read = readStage.table.columns[column]
        let at = "e.\(q("_at\(column)"))"
        if identity.count > 1, read.type.isArray {
            var from = reachedFrom
            var keys: [String] = []
            for (part, identityColumn) in identity.enumerated() {
                let domain = KeyDomain(destinationStage.table.columns[identityColumn].type)
                guard let members = layout.members(table: readStage.position, column: column, domain: domain) else {
                    return nil
                }
                // A part missing from a short array matches nothing: the value is dangling.
                from +=
                    (part == 0 ? " JOIN " : " LEFT JOIN ")
                    + "\(q(members.name)) AS m\(part) ON m\(part).\(q("_seq")) = \(at) AND m\(part).\(q("_pos")) = \(part)"
                keys.append("m\(part).\(q("_key"))")
            }
            return (from, keys, "e.\(q(read.name))", read.type, [])
        }
        let domain = KeyDomain(destinationStage.table.columns[first].type)
        if let members = layout.members(table: readStage.position, column: column, domain: domain) {
            return (
                reachedFrom + " JOIN \(q(members.name)) AS m ON m.\(q("_seq")) = \(at)",
                ["m.\(q("_key"))"], "m.\(q("_value"))", members.elementType, ["m.\(q("_pos"))"]
            )
        }
        guard let keyColumn = readStage.connectionKey(column: column, domain: domain) else { return nil }
        return (reachedFrom, ["e.\(q(keyColumn.name))"], "e.\(q(read.name))", read.type, [])
    }

    /// `d._k0 = key0 AND ...`: a staged destination `d` whose identity's keys are `keys`.
    private func stagedMatch(_ keys: [String]) -> String {
        keys.enumerated().map { "d.\(q("_k\($0)")) = \($1)" }.joined(separator: " AND ")
    }

    /// A stored destination `d` whose identity's keys are `keys`.
    private func storedMatch(_ keys: [String]) -> String {
        let table = destinationStage.table
        return zip(table.identity, keys).map { column, key in
            "\(dialect.keyExpression("d.\(q(table.columns[column].name))", type: table.columns[column].type)) = \(key)"
        }.joined(separator: " AND ")
    }

    /// For a path that ends on an attribute: the values read that match no object of the
    /// destination's table (the run's, and for a partial fetch the stored ones), in source order:
    /// the source's last occurrence (`_seq`, `_origin`, `_record`), its identity, the value.
    func dangling() -> (sql: String, parameters: [Value], values: [AttributeType])? {
        guard case .attribute(let name)? = step.end, let readType = readEntity,
            let attribute = readType.attributeIndex(name), let path = reached()
        else { return nil }
        let readStage = layout.table(of: readType)
        let column = layout.store.bindings[readType.index].attributeColumns[attribute]
        let on = readStage.table.identityNames.enumerated().map { "e.\(q($1)) = \(path.identity[$0])" }
        let reachedFrom = "\(path.from) JOIN \(q(readStage.rowsName)) AS e ON \(on.joined(separator: " AND "))"
        guard let keyed = keyed(reachedFrom, readStage: readStage, column: column) else { return nil }
        let source = sources("s")
        let family = layout.schema.family(of: layout.schema.root(of: step.destination)).map { String($0.index) }
        var found =
            "EXISTS (SELECT 1 FROM \(q(destinationStage.rowsName)) AS d WHERE \(stagedMatch(keyed.keys)) "
            + "AND d.\(q("_entity")) IN (\(family.joined(separator: ", "))))"
        if partial {
            found =
                "(\(found) OR EXISTS (SELECT 1 FROM \(q(destinationStage.table.name)) AS d WHERE \(storedMatch(keyed.keys))))"
        }
        let sql =
            "SELECT s.\(q("_seq")), s.\(q("_origin")), s.\(q("_record")), "
            + (sourceStage.table.identityNames.map { "s.\(q($0))" } + [keyed.value]).joined(separator: ", ")
            + " FROM \(keyed.from) WHERE \(source.sql) AND \(keyed.value) IS NOT NULL AND NOT \(found) ORDER BY s.\(q("_seq"))"
        return (sql, source.parameters, [keyed.type])
    }

    /// `s.x = s1.x AND ...`: the inner source row is the outer one.
    private func selfMatch(_ alias: String) -> String {
        sourceStage.table.identityNames.map { "\(alias).\(q($0)) = s.\(q($0))" }.joined(separator: " AND ")
    }

    /// Inserts the links to the admitted destinations that meet `where`: the run's, then, for a
    /// partial fetch, the stored ones the run does not hold; found by identity (`reached`) or by key.
    private func destinations(
        from: String, reached: [String], place: String, source: PredicateSQL, into: String, byKey keys: [String]?
    ) -> [(sql: String, parameters: [Value])] {
        let admitted =
            (step.connection.includeSubentities ? layout.schema.family(of: step.destination) : [step.destination])
        let sourceIdentity = sourceStage.table.identityNames.map { "s.\(q($0))" }
        let destinationIdentity = destinationStage.table.identityNames.map { "d.\(q($0))" }
        let selected = (sourceIdentity + destinationIdentity + [place, "s.\(q("_seq"))"]).joined(separator: ", ")
        let binding = layout.store.bindings[step.destination.index]
        func wherePredicate(_ alias: String) -> PredicateSQL {
            PredicateSQL.condition(
                step.connection.destinationPredicate, of: step.destination, alias: alias, binding: binding,
                table: destinationStage.table, dialect: dialect)
        }
        let stagedMatch =
            keys.map(stagedMatch)
            ?? destinationIdentity.enumerated().map { "\($1) = \(reached[$0])" }.joined(separator: " AND ")
        let staged = wherePredicate("d")
        let entities = admitted.map { String($0.index) }.joined(separator: ", ")
        var statements = [
            (
                into
                    + "SELECT DISTINCT \(selected) FROM \(from) JOIN \(q(destinationStage.rowsName)) AS d ON \(stagedMatch) "
                    + "AND d.\(q("_entity")) IN (\(entities)) AND \(staged.sql) WHERE \(source.sql)",
                staged.parameters + source.parameters
            )
        ]
        guard partial else { return statements }
        let table = destinationStage.table
        let storedMatch =
            keys.map(storedMatch)
            ?? destinationIdentity.enumerated().map { "\($1) = \(reached[$0])" }.joined(separator: " AND ")
        var admittedStored = "1 = 1"
        if let discriminator = table.discriminator {
            let values = admitted.map { dialect.literal(layout.store.bindings[$0.index].typeValue) }
            admittedStored = "d.\(q(table.columns[discriminator].name)) IN (\(values.joined(separator: ", ")))"
        }
        let notStaged =
            "NOT EXISTS (SELECT 1 FROM \(q(destinationStage.rowsName)) AS x WHERE "
            + table.identityNames.map { "x.\(q($0)) = d.\(q($0))" }.joined(separator: " AND ") + ")"
        let stored = wherePredicate("d")
        statements.append(
            (
                into + "SELECT DISTINCT \(selected) FROM \(from) JOIN \(q(table.name)) AS d ON \(storedMatch) "
                    + "AND \(admittedStored) AND \(stored.sql) AND \(notStaged) WHERE \(source.sql)",
                stored.parameters + source.parameters
            ))
        return statements
    }
}
