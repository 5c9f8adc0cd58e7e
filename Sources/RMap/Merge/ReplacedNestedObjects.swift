/// The nested-only objects a parent's payload replaced (docs/mapping.md, "Objects that only exist
/// nested"), as RestKit's replace assignment policy deletes the value it replaces
/// (`testReplacmentPolicyForToOneCoreDataRelationshipDeletesExistingValues`).
///
/// Before the merge, for each `replace` nested relationship kept in the parent's own column or in a
/// join table whose destination only exists nested, the objects held by the stored rows of the
/// run's parents whose payload carried the relationship (a value, `null`, or no key under
/// `missing: nullify`) are noted in `_rmap_replaced` (table position, row handle). After the
/// run's writes, each noted object that the run does not hold and that no nested link holds any
/// more (``NestedEdges``: not another parent's, not the new value) is deleted, counted as deleted;
/// one created locally stays.
/// A nested to-many whose children hold the link is ``ReleasedChildrenSQL``'s.
struct ReplacedNestedObjects {
    static let name = "_rmap_replaced"

    let layout: StageLayout
    let edges: NestedEdges
    /// The edges of replaced relationships, those the parent's row or a join table keeps.
    private let replaced: [NestedEdges.Edge]

    init(layout: StageLayout, edges: NestedEdges) {
        self.layout = layout
        self.edges = edges
        replaced = edges.all.filter { edge in
            guard let relationship = edge.entity.mapping.relationship(named: edge.relationship), relationship.nested,
                relationship.assignment == .replace
            else { return false }
            let binding = layout.store.bindings[edge.entity.index]
            let index = edge.entity.relationshipIndex(edge.relationship)
            return binding.foreignKeys.contains { $0.relationship == index }
                || binding.joins.contains { $0.relationship == index }
        }
    }

    private var dialect: any SQLDialect.Type { edges.dialect }
    private func q(_ name: String) -> String { dialect.quote(name) }

    /// Notes the objects the run's parents held through the relationships their payloads replace;
    /// returns false (and makes no table) when the model has no such relationship.
    func note(on engine: any SQLEngine) throws -> Bool {
        guard !replaced.isEmpty else { return false }
        let columns = [ColumnLayout(name: "t", type: .int), ColumnLayout(name: "h", type: .int)]
        try engine.execute("DROP TABLE IF EXISTS \(q(Self.name))")
        try engine.execute(StageSchema.table(Self.name, columns, dialect))
        for edge in replaced {
            let stage = layout.tables[edge.source]
            guard let slot = stage.assignedSlot(edge.relationship) else { continue }
            let sql = StagedSQL(stage: stage, dialect: dialect)
            let family = layout.schema.family(of: edge.entity).map { String($0.index) }.joined(separator: ", ")
            // From the run's parents: their stored rows, and what those hold.
            try engine.execute(
                "INSERT INTO \(q(Self.name)) (\(q("t")), \(q("h"))) SELECT \(edge.destination), d.\(q(dialect.rowHandle)) "
                    + "FROM \(q(stage.rowsName)) AS r JOIN \(edge.sourceTable) AS p ON \(sql.sameIdentity("r", "p")) \(edge.joins) "
                    + "WHERE \(edge.condition) AND r.\(q("_entity")) IN (\(family)) AND \(sql.present(slot, "r"))")
        }
        return true
    }

    /// Deletes the noted objects that the run does not hold and that nothing nests any more: the
    /// others are struck from the notes first, so that the deletions, which remove links, do not
    /// change which objects go.
    func delete(on engine: any SQLEngine, counts: inout [EntityWriteCounts]) throws {
        for position in Set(replaced.map(\.destination)).sorted() {
            let stage = layout.tables[position]
            let sql = StagedSQL(stage: stage, dialect: dialect)
            let handle = q(dialect.rowHandle)
            let target = q(stage.table.name)
            try engine.execute(
                "DELETE FROM \(q(Self.name)) AS n WHERE n.\(q("t")) = \(position) AND NOT EXISTS (SELECT 1 FROM \(target) AS o "
                    + "WHERE o.\(handle) = n.\(q("h")) AND NOT \(sql.exists(in: stage.rowsName, like: "o")) "
                    + "AND NOT \(sql.exists(in: stage.table.insertedName, like: "o")) AND NOT \(edges.held("o", table: position)))"
            )
            let identity = stage.table.identityNames.map { q($0) }
            let tuple = { (alias: String) in
                let columns = identity.map { "\(alias).\($0)" }.joined(separator: ", ")
                return identity.count == 1 ? columns : "(\(columns))"
            }
            let orphaned =
                "\(tuple("d")) IN (SELECT \(identity.map { "o.\($0)" }.joined(separator: ", ")) FROM \(q(Self.name)) AS n "
                + "JOIN \(target) AS o ON o.\(handle) = n.\(q("h")) WHERE n.\(q("t")) = \(position))"
            try TableDeletion(stage: stage, layout: layout, dialect: dialect)
                .delete(where: orphaned, [], on: engine, counting: \.deleted, into: &counts)
        }
    }

    /// Drops the table of noted objects.
    func drop(on engine: any SQLEngine) {
        _ = try? engine.execute("DROP TABLE IF EXISTS \(q(Self.name))")
    }
}
