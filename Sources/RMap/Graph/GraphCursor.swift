/// A place in a walk over a graph's objects, root table by root table and
/// row by row, taken a few objects at a time: a walk that never holds a list
/// of every object, and that may pause (e.g. to release a lock) between steps.
///
/// Objects added during the walk are met when their table is reached; removed
/// ones are skipped.
struct GraphCursor {
    private var root = 0
    private var row = 0

    /// The next objects (at most `limit`), or none at the end.
    mutating func next(_ limit: Int, in graph: ObjectGraph) -> [GraphObject] {
        let roots = graph.schema.roots
        var objects: [GraphObject] = []
        while objects.count < limit, root < roots.count {
            let table = graph.table(roots[root].index)
            guard row < table.rowCount else {
                root += 1
                row = 0
                continue
            }
            if !table.removed.contains(row) {
                objects.append(GraphObject(graph: graph, root: roots[root].index, row: row))
            }
            row += 1
        }
        return objects
    }
}
