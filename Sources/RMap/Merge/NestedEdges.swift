/// The links by which objects hold the objects nested in them, as the store keeps them: one edge
/// per nested (or embedded) relationship whose destination only exists nested (`source: false`,
/// ``EntityMapping/nestedOnly``), from the row that nests to the row nested, each a row handle.
///
/// A nested-only object belongs to the objects that hold it through these links: one a parent's
/// payload replaced and nothing holds any more is deleted (``ReplacedNestedObjects``), and with
/// `orphans: delete`, one that no object with a source of its own reaches through them, however
/// many nested-only objects lie between, is an orphan (``UnreachableObjects``).
///
/// ```swift
/// let edges = NestedEdges(layout: layout, dialect: engine.dialect)
/// edges.all[0].select(engine.dialect)   // SELECT p."rowid" AS "sh", d."rowid" AS "dh" FROM "humans" AS p JOIN "cats" AS d ON ...
/// ```
struct NestedEdges {
    /// The links of one relationship.
    struct Edge {
        /// The table position of the objects that nest.
        let source: Int
        /// The table position of the nested-only objects.
        let destination: Int
        /// The source entity and the relationship's name.
        let entity: EntityType
        let relationship: String
        /// The source's table, quoted (alias `p` in ``joins`` and ``condition``).
        let sourceTable: String
        /// What follows `FROM <sourceTable> AS p` to reach the destination's rows (alias `d`).
        let joins: String
        /// The condition on `p` and `d` (their entities).
        let condition: String

        /// `SELECT ... AS sh, ... AS dh`: the handles of the rows the relationship links.
        func select(_ dialect: any SQLDialect.Type) -> String {
            let handle = dialect.quote(dialect.rowHandle)
            return "SELECT p.\(handle) AS \(dialect.quote("sh")), d.\(handle) AS \(dialect.quote("dh")) "
                + "FROM \(sourceTable) AS p \(joins) WHERE \(condition)"
        }
    }

    let layout: StageLayout
    let dialect: any SQLDialect.Type
    /// Every nested relationship's edge into a nested-only table, once per relationship (a
    /// sub-entity's inherited relationship is its parent's).
    let all: [Edge]

    init(layout: StageLayout, dialect: any SQLDialect.Type) {
        self.layout = layout
        self.dialect = dialect
        let stored = StoredModel(schema: layout.schema)
        var edges: [Edge] = []
        for type in layout.schema.types {
            for relationship in type.mapping.relationships where relationship.nested || relationship.embedded {
                guard let destination = layout.schema.type(named: relationship.destination),
                    layout.schema.root(of: destination).mapping.nestedOnly,
                    !edges.contains(where: {
                        $0.relationship == relationship.name
                            && layout.schema.family(of: $0.entity).contains { $0 === type }
                    }),
                    let path = try? RelationshipPath(stored, from: type, relationship.name),
                    let (joins, condition) = Self.joins(path, from: type, stored: stored, dialect: dialect)
                else { continue }
                edges.append(
                    Edge(
                        source: stored.binding(of: type).table, destination: stored.binding(of: destination).table,
                        entity: type, relationship: relationship.name,
                        sourceTable: dialect.quote(stored.table(of: type).name), joins: joins, condition: condition))
            }
        }
        all = edges
    }

    /// The table positions whose root only exists nested.
    var nestedOnlyTables: Set<Int> {
        Set(layout.schema.roots.filter(\.mapping.nestedOnly).map { layout.store.bindings[$0.index].table })
    }

    /// True when some edge leads to the row of alias `alias` of the table at `position`.
    func held(_ alias: String, table position: Int) -> String {
        let q = dialect.quote
        let held = all.filter { $0.destination == position }.map {
            "EXISTS (SELECT 1 FROM \($0.sourceTable) AS p \($0.joins) WHERE \($0.condition) "
                + "AND d.\(q(dialect.rowHandle)) = \(alias).\(q(dialect.rowHandle)))"
        }
        return held.isEmpty ? "1 = 0" : "(" + held.joined(separator: " OR ") + ")"
    }

    /// The joins from the source's rows (`p`) to the rows `path` links them to (`d`), and the
    /// condition on their entities; `nil` for links the store does not compare by column (an array of keys).
    private static func joins(
        _ path: RelationshipPath, from source: EntityType, stored: StoredModel, dialect: any SQLDialect.Type
    ) -> (joins: String, condition: String)? {
        let q = dialect.quote
        let sourceTable = stored.table(of: source)
        let destinationTable = stored.table(of: path.destination)
        let d = "\(q(destinationTable.name)) AS d"
        func equal(_ left: [String], _ right: [String]) -> String {
            zip(left, right).map { "\($0) = \($1)" }.joined(separator: " AND ")
        }
        let sourceIdentity = sourceTable.identityNames.map { "p.\(q($0))" }
        let destinationIdentity = destinationTable.identityNames.map { "d.\(q($0))" }
        // A join table's first columns hold its own source's identity (the destination's, for an inverse's).
        func joined(_ join: JoinTableLayout, sourceFirst: Bool) -> String {
            let near = join.columns.prefix(join.sourceColumnCount).map { "j.\(q($0.name))" }
            let far = join.destinationColumns.map { "j.\(q($0.name))" }
            let (sources, destinations) = sourceFirst ? (near, far) : (far, near)
            return "JOIN \(q(join.name)) AS j ON \(equal(sources, sourceIdentity)) "
                + "JOIN \(d) ON \(equal(destinationIdentity, destinations))"
        }
        let joins: String
        switch path.place {
        case .ownColumns(let columns):
            joins = "JOIN \(d) ON " + equal(destinationIdentity, columns.map { "p.\(q(sourceTable.columns[$0].name))" })
        case .childColumns(let columns, _):
            joins = "JOIN \(d) ON " + equal(columns.map { "d.\(q(destinationTable.columns[$0].name))" }, sourceIdentity)
        case .joinTable(let join):
            joins = joined(join, sourceFirst: true)
        case .inverseJoinTable(let join):
            joins = joined(join, sourceFirst: false)
        case .attributes(let pairs):
            var conditions: [String] = []
            for pair in pairs {
                let sourceColumn = sourceTable.columns[pair.source]
                let destinationColumn = destinationTable.columns[pair.destination]
                if case .array = sourceColumn.type { return nil }
                if case .array = destinationColumn.type { return nil }
                conditions.append(
                    dialect.keyExpression("d.\(q(destinationColumn.name))", type: destinationColumn.type) + " = "
                        + dialect.keyExpression("p.\(q(sourceColumn.name))", type: sourceColumn.type))
            }
            joins = "JOIN \(d) ON " + conditions.joined(separator: " AND ")
        }
        var conditions: [String] = []
        if let rows = stored.rows(of: stored.schema.family(of: source), alias: "p", dialect: dialect) {
            conditions.append(rows)
        }
        if let rows = stored.rows(of: path.members, alias: "d", dialect: dialect) { conditions.append(rows) }
        return (joins, conditions.isEmpty ? "1 = 1" : conditions.joined(separator: " AND "))
    }
}
