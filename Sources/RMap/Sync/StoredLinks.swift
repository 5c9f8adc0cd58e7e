/// The statements the sync API runs on one join table, in an engine's dialect: a source's
/// links, the sources linked to a destination, and a source's links replaced.
///
/// A link is given without its source: the destination's identity values, then its `position`
/// when the join table keeps one.
///
/// ```swift
/// let team = StoredLinks(join: layout.joinTables[0], engine: engine)
/// try team.links(source: [.int(10)])   // [[.int(1)], [.int(2)]]
/// ```
struct StoredLinks {
    let join: JoinTableLayout
    let engine: any SQLEngine

    private func q(_ name: String) -> String { engine.dialect.quote(name) }
    private var sourceColumns: [ColumnLayout] { Array(join.columns.prefix(join.sourceColumnCount)) }
    /// The columns of a link without its source.
    private var linkColumns: [ColumnLayout] { Array(join.columns.dropFirst(join.sourceColumnCount)) }

    /// `position` first when kept, then the destination's identity.
    private var order: [String] { (join.ordered ? ["position"] : []) + join.destinationColumns.map(\.name) }

    private func equal(_ columns: some Sequence<ColumnLayout>) -> String {
        columns.map { "\(q($0.name)) = ?" }.joined(separator: " AND ")
    }

    /// The links of `source`, in the order of their `position` when the table keeps one, else
    /// of their destinations.
    func links(source: [Value]) throws -> [[Value]] {
        try engine.rows(
            "SELECT \(engine.dialect.list(linkColumns.map(\.name))) FROM \(q(join.name)) "
                + "WHERE \(equal(sourceColumns)) ORDER BY \(engine.dialect.list(order))",
            source, types: linkColumns.map(\.type))
    }

    /// The sources with a link to `destination`.
    func sources(linkedTo destination: [Value]) throws -> [[Value]] {
        try engine.rows(
            "SELECT DISTINCT \(engine.dialect.list(sourceColumns.map(\.name))) FROM \(q(join.name)) "
                + "WHERE \(equal(join.destinationColumns))", destination, types: sourceColumns.map(\.type))
    }

    /// Makes `links` the links of `source`, a link to a destination already linked kept once (the first).
    func replace(source: [Value], with links: [[Value]]) throws {
        try engine.execute("DELETE FROM \(q(join.name)) WHERE \(equal(sourceColumns))", source)
        var seen = Set<IdentityKey>()
        let width = join.destinationColumns.count
        let kept = links.filter { seen.insert(IdentityKey(Array($0.prefix(width)))).inserted }
        try engine.insert(into: join.name, columns: join.columns, rows: kept.map { source + $0 })
    }
}
