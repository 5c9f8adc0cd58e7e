/// Orphans by reachability (docs/mapping.md, "Objects that only exist nested"): with
/// `orphans: delete` on an entity that only exists nested (`source: false`), its stored objects
/// that no object with a source of its own reaches any more through nested links
/// (``NestedEdges``), directly or through other nested-only objects, self-references and cycles
/// included, are deleted after the run's writes, counted as orphans; objects created locally stay.
/// RestKit's `testDeletionOfOrphanedTagsOfPosts`, `testDeletionOfObjectsMappedFindsObjectsMappedByNestedSelfReferentialMappings`.
///
/// The links go into `_rmap_nested_edges` (table position and row handle of each end) and the
/// objects reached into `_rmap_reached`, by one recursive query from the links whose source has
/// a source of its own: both stay in the store, so memory does not grow with it.
struct UnreachableObjects {
    static let edgesName = "_rmap_nested_edges"
    static let reachedName = "_rmap_reached"

    let layout: StageLayout
    let edges: NestedEdges

    private var dialect: any SQLDialect.Type { edges.dialect }
    private func q(_ name: String) -> String { dialect.quote(name) }

    /// The nested-only entities whose orphans are deleted.
    var entities: [EntityType] {
        layout.schema.types.filter { $0.mapping.orphans == .delete && layout.schema.root(of: $0).mapping.nestedOnly }
    }

    /// Finds what the objects with sources reach, and deletes the objects of ``entities`` they do not.
    func delete(on engine: any SQLEngine, counts: inout [EntityWriteCounts]) throws {
        let entities = entities
        guard !entities.isEmpty else { return }
        defer { drop(on: engine) }
        drop(on: engine)
        let int = { (name: String) in ColumnLayout(name: name, type: .int) }
        try engine.execute(StageSchema.table(Self.edgesName, ["st", "sh", "dt", "dh"].map(int), dialect))
        try engine.execute(StageSchema.table(Self.reachedName, ["t", "h"].map(int), dialect))
        for edge in edges.all {
            try engine.execute(
                "INSERT INTO \(q(Self.edgesName)) (\(dialect.list(["st", "sh", "dt", "dh"]))) "
                    + "SELECT \(edge.source), e.\(q("sh")), \(edge.destination), e.\(q("dh")) FROM (\(edge.select(dialect))) AS e"
            )
        }
        try engine.execute(
            "CREATE INDEX \(q("\(Self.edgesName)_source")) ON \(q(Self.edgesName)) (\(dialect.list(["st", "sh"])))")
        let roots = layout.store.tables.indices.filter { !edges.nestedOnlyTables.contains($0) }.map(String.init)
        let e = { (name: String) in "e.\(self.q(name))" }
        try engine.execute(
            "WITH RECURSIVE \(q("r")) (\(dialect.list(["t", "h"]))) AS ("
                + "SELECT \(e("dt")), \(e("dh")) FROM \(q(Self.edgesName)) AS e WHERE \(e("st")) IN (\(roots.isEmpty ? "NULL" : roots.joined(separator: ", "))) "
                + "UNION SELECT \(e("dt")), \(e("dh")) FROM \(q(Self.edgesName)) AS e JOIN \(q("r")) AS r "
                + "ON \(e("st")) = r.\(q("t")) AND \(e("sh")) = r.\(q("h"))) "
                + "INSERT INTO \(q(Self.reachedName)) (\(dialect.list(["t", "h"]))) SELECT r.\(q("t")), r.\(q("h")) FROM \(q("r")) AS r"
        )
        try engine.execute(
            "CREATE INDEX \(q("\(Self.reachedName)_handle")) ON \(q(Self.reachedName)) (\(dialect.list(["t", "h"])))")
        for entity in entities {
            let position = layout.store.bindings[entity.index].table
            let stage = layout.tables[position]
            let sql = StagedSQL(stage: stage, dialect: dialect)
            let unreached =
                "EXISTS (SELECT 1 FROM \(q(stage.table.name)) AS o WHERE \(sql.sameIdentity("o", "d")) "
                + "AND NOT EXISTS (SELECT 1 FROM \(q(Self.reachedName)) AS n WHERE n.\(q("t")) = \(position) "
                + "AND n.\(q("h")) = o.\(q(dialect.rowHandle))) AND NOT \(sql.exists(in: stage.table.insertedName, like: "o")))"
            try TableDeletion(stage: stage, layout: layout, dialect: dialect).deleteOrphans(
                of: entity, where: unreached, on: engine, counts: &counts)
        }
    }

    /// Drops the tables of links and of objects reached.
    func drop(on engine: any SQLEngine) {
        for name in [Self.edgesName, Self.reachedName] { _ = try? engine.execute("DROP TABLE IF EXISTS \(q(name))") }
    }
}
