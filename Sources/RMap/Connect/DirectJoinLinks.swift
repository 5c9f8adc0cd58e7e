/// A to-many connected by foreign key whose links go nowhere but a join table that holds none
/// yet: the step writes them there itself, each once, instead of into a links table
/// (``StepLinks``) that ``LinkMerge`` copies at the merge. That takes a join table that is the
/// relationship's only source of links, unordered (no places to number), and whose sources no
/// tombstone may delete before the merge; the links are kept for nothing else (no inverse
/// foreign key, no key path reading through them, no stage following them).
struct DirectJoinLinks {
    let join: JoinTableLayout

    /// `nil` when the step's links must go through a links table.
    init?(step: ConnectionStep, steps: [ConnectionStep], layout: StageLayout) {
        let binding = layout.store.bindings[step.source.index]
        guard step.relationship.kind == .toMany,
            let entry = binding.joins.first(where: { $0.relationship == step.position })
        else { return nil }
        let join = layout.store.joinTables[entry.join]
        let writers = steps.filter { other in
            layout.store.bindings[other.source.index].joins.contains {
                $0.join == entry.join && $0.relationship == other.position
            }
        }
        guard !join.ordered, writers.count == 1, !layout.hasTombstones(table: binding.table),
            !layout.nestedLinks.contains(where: { $0.join == entry.join })
        else { return nil }
        self.join = join
    }

    /// Writes `connect`'s links into the join table, after telling the engine how many may come.
    ///
    /// - Returns: how many links were written and how many keys the sources carry; `nil`, with
    ///   nothing written, when the join table holds links already.
    func write(_ connect: ForeignKeyConnect, on engine: any SQLEngine) throws -> (linked: Int, keys: Int)? {
        guard try !engine.exists("SELECT 1 FROM \(engine.dialect.quote(join.name))") else { return nil }
        let keys = connect.keyCount()
        let count = try engine.count(keys.sql, keys.parameters)
        try engine.willInsert(into: join.name) { count }
        var linked = 0
        for (sql, parameters) in connect.fill(join) { linked += try engine.execute(sql, parameters) }
        try engine.didInsert(into: join.name)
        return (linked, count)
    }
}
