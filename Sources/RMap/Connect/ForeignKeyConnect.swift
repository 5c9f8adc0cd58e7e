/// One foreign-key connection step in SQL (docs/mapping.md, "Foreign keys"): the sources of the
/// run (objects of exactly the step's entity whose payload carried the key and that meet
/// `when`) joined with the destinations whose keys equal theirs, in the destination's domain
/// (``CanonicalKey``): the run's objects of the admitted entities that meet `where`, and, for
/// a table the run did not fetch completely, the stored rows the run does not hold. Pairs are
/// ANDed; an array value is an OR over its members, linked in the array's order, once each.
struct ForeignKeyConnect {
    let step: ConnectionStep
    let links: StepLinks
    let layout: StageLayout
    let dialect: any SQLDialect.Type
    /// Whether the destination's stored rows are destinations too.
    let partial: Bool
    let pairs: [(source: Int, destination: Int, domain: KeyDomain)]

    init?(step: ConnectionStep, number: Int, layout: StageLayout, dialect: any SQLDialect.Type, partial: Bool) {
        guard case .foreignKey(let declared) = step.connection.rule else { return nil }
        let sourceBinding = layout.store.bindings[step.source.index]
        let destinationBinding = layout.store.bindings[step.destination.index]
        var pairs: [(Int, Int, KeyDomain)] = []
        for pair in declared {
            guard let from = step.source.attributeIndex(pair.source),
                let to = step.destination.attributeIndex(pair.destination)
            else { return nil }
            pairs.append(
                (
                    sourceBinding.attributeColumns[from], destinationBinding.attributeColumns[to],
                    KeyDomain(step.destination.mapping.attributes[to].type)
                ))
        }
        self.pairs = pairs
        self.step = step
        self.layout = layout
        self.dialect = dialect
        self.partial = partial
        let sourceTable = layout.tables[sourceBinding.table].table
        let destinationTable = layout.tables[destinationBinding.table].table
        links = StepLinks(
            number: number, source: sourceTable.identity.map { sourceTable.columns[$0] },
            destination: destinationTable.identity.map { destinationTable.columns[$0] })
    }

    var sourceStage: StageTable { layout.table(of: step.source) }
    var destinationStage: StageTable { layout.table(of: step.destination) }
    private func q(_ name: String) -> String { dialect.quote(name) }

    /// The one array pair, when the foreign key's lone source attribute is an array.
    var members: StageMembers? {
        guard pairs.count == 1, sourceStage.table.columns[pairs[0].source].type.isArray else { return nil }
        return layout.members(table: sourceStage.position, column: pairs[0].source, domain: pairs[0].domain)
    }

    /// The entities a destination may be.
    var admitted: [EntityType] {
        step.connection.includeSubentities ? layout.schema.family(of: step.destination) : [step.destination]
    }

    /// The sources: the step's entity, with every key carried, meeting `when`.
    func sources(_ alias: String) -> PredicateSQL {
        var condition = PredicateSQL.condition(
            step.connection.sourcePredicate, of: step.source, alias: alias,
            binding: layout.store.bindings[step.source.index], table: sourceStage.table, dialect: dialect)
        let carried = pairs.map { StagedSQL(stage: sourceStage, dialect: dialect).present($0.source, alias) }
        condition.sql =
            "\(alias).\(q("_entity")) = \(step.source.index) AND " + carried.joined(separator: " AND ")
            + " AND \(condition.sql)"
        return condition
    }

    /// The key of pair `offset` on source alias `s` (or member alias `m`).
    private func sourceKey(_ offset: Int) -> String {
        if members != nil { return "m.\(q("_key"))" }
        guard let column = sourceStage.connectionKey(column: pairs[offset].source, domain: pairs[offset].domain) else {
            return "NULL"
        }
        return "s.\(q(column.name))"
    }

    /// The narrow keys of the destination's table (``DestinationKeys``), when a staged destination
    /// is found by its identity alone (no `where`); `nil` otherwise.
    var destinationKeys: DestinationKeys? {
        let table = destinationStage.table
        guard step.matchesIdentity, step.connection.destinationPredicate.clauses.isEmpty,
            pairs.allSatisfy({ table.identity.contains($0.destination) })
        else { return nil }
        return DestinationKeys(stage: destinationStage, dialect: dialect)
    }

    /// Where staged destinations are looked up: their keys, or the merged rows.
    private var stagedDestinations: String { q(destinationKeys?.name ?? destinationStage.rowsName) }

    /// The key of pair `offset` on a staged destination `d`.
    private func stagedKey(_ offset: Int) -> String {
        let table = destinationStage.table
        if step.matchesIdentity, let part = table.identity.firstIndex(of: pairs[offset].destination) {
            return "d.\(q("_k\(part)"))"
        }
        guard
            let column = destinationStage.connectionKey(column: pairs[offset].destination, domain: pairs[offset].domain)
        else { return "NULL" }
        return "d.\(q(column.name))"
    }

    /// The key of pair `offset` on a stored destination `d`.
    private func storedKey(_ offset: Int) -> String {
        let column = destinationStage.table.columns[pairs[offset].destination]
        return dialect.keyExpression("d.\(q(column.name))", type: column.type)
    }

    /// `FROM` the sources (and their members).
    private var sourceJoin: String {
        let rows = "\(q(sourceStage.rowsName)) AS s"
        guard let members else { return rows }
        return "\(rows) JOIN \(q(members.name)) AS m ON m.\(q("_seq")) = s.\(q("_at\(members.column)"))"
    }

    private var position: String { members == nil ? "0" : "m.\(q("_pos"))" }

    private func entityIn(_ alias: String, _ types: [EntityType]) -> String {
        "\(alias).\(q("_entity")) IN (\(types.map { String($0.index) }.joined(separator: ", ")))"
    }

    /// The stored entity test of alias `d` for the admitted entities: by the `type` column.
    private func storedAdmitted(_ alias: String) -> String {
        let table = destinationStage.table
        guard let discriminator = table.discriminator else { return "1 = 1" }
        let values = admitted.map { dialect.literal(layout.store.bindings[$0.index].typeValue) }
        return "\(alias).\(q(table.columns[discriminator].name)) IN (\(values.joined(separator: ", ")))"
    }

    /// The statements that fill the links table: staged destinations, then stored ones.
    func fill() -> [(sql: String, parameters: [Value])] {
        let into = "INSERT INTO \(q(links.name)) (\(dialect.list(links.columns.map(\.name)))) SELECT "
        return matches(adding: [position, "s.\(q("_seq"))"]).map { (into + $0.sql, $0.parameters) }
    }

    /// The statements that write the links straight into `join`, each link once: staged
    /// destinations, then stored ones (never both for one destination). The join table's key
    /// drops a repeated link, or the statement does, in the key's order
    /// (``SQLDialect/linksIgnoreDuplicates``).
    func fill(_ join: JoinTableLayout) -> [(sql: String, parameters: [Value])] {
        let columns = join.columns.prefix(join.sourceColumnCount).map(\.name) + join.destinationColumns.map(\.name)
        let into = "INSERT INTO \(q(join.name)) (\(dialect.list(columns))) SELECT "
        if dialect.linksIgnoreDuplicates {
            return matches(adding: []).map { (into + $0.sql + " ON CONFLICT DO NOTHING", $0.parameters) }
        }
        let order = " ORDER BY " + columns.indices.map { "\($0 + 1)" }.joined(separator: ", ")
        return matches(adding: []).map { (into + "DISTINCT " + $0.sql + order, $0.parameters) }
    }

    /// Each source's identity, each destination's, then `extra`, for every source and destination
    /// whose keys match: `... FROM ... WHERE ...` over staged destinations, then stored ones.
    private func matches(adding extra: [String]) -> [(sql: String, parameters: [Value])] {
        let source = sources("s")
        let destinationBinding = layout.store.bindings[step.destination.index]
        let wherePredicate = { (alias: String) in
            PredicateSQL.condition(
                step.connection.destinationPredicate, of: step.destination, alias: alias,
                binding: destinationBinding, table: destinationStage.table, dialect: dialect)
        }
        let sourceIdentity = sourceStage.table.identityNames.map { "s.\(q($0))" }
        let destinationIdentity = destinationStage.table.identityNames.map { "d.\(q($0))" }
        let selected = (sourceIdentity + destinationIdentity + extra).joined(separator: ", ")
        let staged = wherePredicate("d")
        let stagedMatch = pairs.indices.map { "\(stagedKey($0)) = \(sourceKey($0))" }.joined(separator: " AND ")
        var statements = [
            (
                selected + " FROM \(sourceJoin) JOIN \(stagedDestinations) AS d ON \(stagedMatch) "
                    + "AND \(entityIn("d", admitted)) AND \(staged.sql) WHERE \(source.sql)",
                staged.parameters + source.parameters
            )
        ]
        guard partial else { return statements }
        let stored = wherePredicate("d")
        let storedMatch = pairs.indices.map { "\(storedKey($0)) = \(sourceKey($0))" }.joined(separator: " AND ")
        let notStaged =
            "NOT EXISTS (SELECT 1 FROM \(q(destinationStage.rowsName)) AS x WHERE "
            + destinationStage.table.identityNames.map { "x.\(q($0)) = d.\(q($0))" }.joined(separator: " AND ") + ")"
        statements.append(
            (
                selected + " FROM \(sourceJoin) JOIN \(q(destinationStage.table.name)) AS d ON \(storedMatch) "
                    + "AND \(storedAdmitted("d")) AND \(stored.sql) AND \(notStaged) WHERE \(source.sql)",
                stored.parameters + source.parameters
            ))
        return statements
    }

    /// The sources' keys that match nothing in the destination's whole table (the run's objects
    /// and, for a partial fetch, the stored rows), in source then member order: the source's
    /// last occurrence (`_seq`, `_origin`, `_record`), its identity, and the values.
    func dangling() -> (sql: String, parameters: [Value], values: [AttributeType]) {
        let source = sources("s")
        let family = layout.schema.family(of: layout.schema.root(of: step.destination))
        let staged =
            "EXISTS (SELECT 1 FROM \(stagedDestinations) AS d WHERE "
            + pairs.indices.map { "\(stagedKey($0)) = \(sourceKey($0))" }.joined(separator: " AND ")
            + " AND \(entityIn("d", family)))"
        var found = staged
        if partial {
            let stored =
                "EXISTS (SELECT 1 FROM \(q(destinationStage.table.name)) AS d WHERE "
                + pairs.indices.map { "\(storedKey($0)) = \(sourceKey($0))" }.joined(separator: " AND ") + ")"
            found = "(\(staged) OR \(stored))"
        }
        let order = members == nil ? "s.\(q("_seq"))" : "s.\(q("_seq")), m.\(q("_pos"))"
        let sql =
            "SELECT s.\(q("_seq")), s.\(q("_origin")), s.\(q("_record")), "
            + (sourceStage.table.identityNames.map { "s.\(q($0))" } + values.map(\.sql)).joined(separator: ", ")
            + " FROM \(sourceJoin) WHERE \(source.sql) AND \(valuesPresent) AND NOT \(found) ORDER BY \(order)"
        return (sql, source.parameters, values.map(\.type))
    }

    /// How many keys the sources carry, an array's members one each. When a key finds at most one
    /// destination (``ConnectionStep/matchesIdentity``) and the step made as many links, no key
    /// dangles: ``dangling()`` need not look.
    func keyCount() -> (sql: String, parameters: [Value]) {
        let source = sources("s")
        return ("SELECT count(*) FROM \(sourceJoin) WHERE \(source.sql) AND \(valuesPresent)", source.parameters)
    }

    /// The values a dangling reference reports: the array member's, or each pair's source column.
    private var values: [(sql: String, type: AttributeType)] {
        if let members { return [("m.\(q("_value"))", members.elementType)] }
        let table = sourceStage.table
        return pairs.map { ("s.\(q(table.columns[$0.source].name))", table.columns[$0.source].type) }
    }

    private var valuesPresent: String { values.map { "\($0.sql) IS NOT NULL" }.joined(separator: " AND ") }
}
