/// The children a `replace` nested to-many no longer lists, when the link is the child's
/// foreign-key column (`projects: { nested: true }` with the to-one `owner` in
/// `projects.owner_id`), set by set (docs/mapping.md, "What a run writes"):
///
/// a parent whose payload carried the relationship's key names its whole set, so a stored child
/// whose base foreign key holds that parent and which the set leaves out loses its foreign key,
/// merged three ways like any remote change (a child whose foreign key was edited locally is a
/// conflict, settled by its `on_conflict`), or is deleted when its entity says
/// `delete_when: { missing_from_parent: true }`. A parent whose payload lacked the key keeps its
/// children. Within the run, a child listed by an occurrence of the parent before the last one
/// that named the set, and not since, is released too: its foreign key was set earlier
/// (`_at<column>`) than the parent named the set (`_at<slot>`).
///
/// `assignment: union` names its set only with `null` (the parent's slot says so): the children
/// listed before are released, none deleted.
struct ReleasedChildrenSQL {
    let layout: StageLayout
    let dialect: any SQLDialect.Type
    let groups: [ChildHeldLink]

    init(layout: StageLayout, dialect: any SQLDialect.Type) {
        self.layout = layout
        self.dialect = dialect
        groups = ChildHeldLink.all(schema: layout.schema, store: layout.store)
    }

    private func q(_ name: String) -> String { dialect.quote(name) }

    /// True (for a child of alias `d`, whose base foreign key is `baseKey`) when a parent of the
    /// run named its set, and the run's row of the child does not point at that parent.
    private func released(_ group: ChildHeldLink, child alias: String, baseKey: [String]) -> String {
        let parentStage = layout.table(of: group.parent)
        let childStage = layout.table(of: group.child)
        guard let slot = parentStage.assignedSlot(group.relationship) else { return "1 = 0" }
        let parentSQL = StagedSQL(stage: parentStage, dialect: dialect)
        let named = zip(parentStage.table.identityNames, baseKey).map { "p.\(q($0)) = \($1)" }.joined(
            separator: " AND ")
        let fk = group.columns.map { childStage.table.columns[$0].name }
        let listed = zip(fk, parentStage.table.identityNames).map { "c.\(q($0)) = p.\(q($1))" }.joined(
            separator: " AND ")
        let sameChild = childStage.table.identityNames.map { "c.\(q($0)) = \(alias).\(q($0))" }.joined(
            separator: " AND ")
        return
            "EXISTS (SELECT 1 FROM \(q(parentStage.rowsName)) AS p WHERE \(named) AND p.\(q("_entity")) = \(group.parent.index) "
            + "AND \(parentSQL.present(slot, "p")) AND NOT EXISTS (SELECT 1 FROM \(q(childStage.rowsName)) AS c "
            + "WHERE \(sameChild) AND \(listed)))"
    }

    /// The base foreign key of stored child `d`: its base row's when it has one, else its row's.
    private func baseKey(_ group: ChildHeldLink) -> [String] {
        let table = layout.table(of: group.child).table
        return group.columns.map { column in
            let name = q(table.columns[column].name)
            let base =
                "(SELECT b.\(name) FROM \(q(table.baseName)) AS b WHERE \(table.identityNames.map { "b.\(q($0)) = d.\(q($0))" }.joined(separator: " AND ")))"
            return
                "(CASE WHEN EXISTS (SELECT 1 FROM \(q(table.baseName)) AS b WHERE \(table.identityNames.map { "b.\(q($0)) = d.\(q($0))" }.joined(separator: " AND "))) THEN \(base) ELSE d.\(name) END)"
        }
    }

    /// Before the merge: the run's rows of children whose payload left the foreign key unset, that
    /// a parent no longer lists and whose stored base points at it, get a null foreign key (the
    /// merge then treats it as any remote change).
    func releaseStaged(on engine: any SQLEngine) throws {
        for group in groups {
            let stage = layout.table(of: group.child)
            let rows = q(stage.rowsName)
            let sql = StagedSQL(stage: stage, dialect: dialect)
            let unset = group.columns.map { "NOT (\(sql.present($0, rows)))" }.joined(separator: " AND ")
            let stored =
                "SELECT 1 FROM \(q(stage.table.name)) AS d WHERE "
                + stage.table.identityNames.map { "d.\(q($0)) = \(rows).\(q($0))" }.joined(separator: " AND ")
                + " AND \(released(group, child: "d", baseKey: baseKey(group)))"
            var sets = group.columns.map { "\(q(stage.table.columns[$0].name)) = NULL" }
            sets += sql.markPresent(group.columns, rows)
            try engine.execute(
                "UPDATE \(rows) SET \(sets.joined(separator: ", ")) WHERE \(unset) AND EXISTS (\(stored))")
        }
    }

    /// Once the rows are merged, before connections and stages read them: the run's rows of
    /// children that an earlier occurrence of their parent listed and its last one that named the
    /// set did not get a null foreign key.
    func releaseListedEarlier(on engine: any SQLEngine) throws {
        for group in groups {
            guard let slot = layout.table(of: group.parent).assignedSlot(group.relationship) else { continue }
            let stage = layout.table(of: group.child)
            let rows = q(stage.rowsName)
            let fk = group.columns.map { stage.table.columns[$0].name }
            let (mask, _) = StageTable.bit(of: group.columns[0])
            // The parents are read in their order, and each one's children through an index in the
            // same order. Child by child, the parents were looked up at random, most of them a page
            // of the engine's temporary file (N = 100,000 nested, task ids shuffled: 2.7 s). One
            // index per key: a child held by two parents' relationships needs both.
            try engine.execute(
                "CREATE INDEX IF NOT EXISTS \(q("\(stage.rowsName)_parent_\(group.columns[0])")) ON \(rows) "
                    + "(\(dialect.list(fk + ["_at\(group.columns[0])", "_m\(mask)"])))")
            try engine.execute(
                "UPDATE \(rows) SET \(fk.map { "\(q($0)) = NULL" }.joined(separator: ", ")) "
                    + "WHERE (\(dialect.list(Self.rowKey(stage)))) IN (\(stale(group, slot: slot)))")
        }
    }

    /// The keys of the run's rows of children whose foreign key an occurrence of their parent set
    /// before the parent's last occurrence that named the set (in `slot`), which did not list them.
    private func stale(_ group: ChildHeldLink, slot: Int) -> String {
        let parentStage = layout.table(of: group.parent)
        let childStage = layout.table(of: group.child)
        let parentSQL = StagedSQL(stage: parentStage, dialect: dialect)
        let childSQL = StagedSQL(stage: childStage, dialect: dialect)
        let fk = group.columns.map { childStage.table.columns[$0].name }
        let listed = zip(fk, parentStage.table.identityNames).map { "c.\(q($0)) = p.\(q($1))" }.joined(
            separator: " AND ")
        let keys = Self.rowKey(childStage).map { "c.\(q($0))" }.joined(separator: ", ")
        // CROSS JOIN: SQLite reads the parents first, in order (PostgreSQL plans it as any join).
        return "SELECT \(keys) FROM \(q(parentStage.rowsName)) AS p CROSS JOIN \(q(childStage.rowsName)) AS c "
            + "WHERE \(listed) AND p.\(q("_entity")) = \(group.parent.index) AND \(parentSQL.present(slot, "p")) "
            + "AND \(childSQL.present(group.columns[0], "c")) AND c.\(q("_at\(group.columns[0])")) < p.\(q("_at\(slot)"))"
    }

    /// The columns that tell the run's rows of `stage` apart: its identity's keys, else (objects
    /// without an identity, a row per occurrence) the sequence of the row's occurrence.
    private static func rowKey(_ stage: StageTable) -> [String] {
        stage.keyColumns.isEmpty ? ["_seq"] : stage.keyColumns.map(\.name)
    }

    /// After the merge: the stored children the run does not hold that a parent no longer lists,
    /// released (or deleted), counted as updated (or deleted); their conflicts, for `on_conflict: fail`.
    func releaseStored(on engine: any SQLEngine, counts: inout [EntityWriteCounts]) throws -> [ConflictError.Conflict] {
        var conflicts: [ConflictError.Conflict] = []
        for group in groups {
            let stage = layout.table(of: group.child)
            let table = stage.table
            let notInRun =
                "NOT EXISTS (SELECT 1 FROM \(q(stage.rowsName)) AS r WHERE "
                + table.identityNames.map { "r.\(q($0)) = d.\(q($0))" }.joined(separator: " AND ") + ")"
            let condition = "\(notInRun) AND \(released(group, child: "d", baseKey: baseKey(group)))"
            let deletion = TableDeletion(stage: stage, layout: layout, dialect: dialect)
            // A child that only exists nested is deleted with its place in the list (RestKit's replace policy).
            if !group.union,
                group.child.mapping.deletion.missingFromParent || layout.schema.root(of: group.child).mapping.nestedOnly
            {
                try deletion.delete(where: condition, [], on: engine, counting: \.deleted, into: &counts)
                continue
            }
            let fk = group.columns.map { q(table.columns[$0].name) }
            let base = q(table.baseName)
            let hasBase =
                "EXISTS (SELECT 1 FROM \(base) AS b WHERE \(table.identityNames.map { "b.\(q($0)) = d.\(q($0))" }.joined(separator: " AND ")))"
            let baseMatches =
                "EXISTS (SELECT 1 FROM \(base) AS b WHERE "
                + table.identityNames.map { "b.\(q($0)) = d.\(q($0))" }.joined(separator: " AND ") + " AND "
                + fk.map { "d.\($0) IS NOT DISTINCT FROM b.\($0)" }.joined(separator: " AND ") + ")"
            let policy = group.child.mapping.onConflict
            // A child edited locally (its foreign key differs from its base's) is a conflict.
            if policy == .fail {
                try engine.query(
                    "SELECT \(table.identityNames.map { "d.\(q($0))" }.joined(separator: ", ")), \(fk.map { "d.\($0)" }.joined(separator: ", ")) "
                        + "FROM \(q(table.name)) AS d WHERE \(condition) AND \(hasBase) AND NOT \(baseMatches)",
                    [],
                    types: table.identity.map { table.columns[$0].type } + group.columns.map { table.columns[$0].type }
                ) { row in
                    let identity = Array(row.prefix(table.identity.count))
                    let local = Array(row.dropFirst(table.identity.count))
                    conflicts.append(
                        ConflictError.Conflict(
                            entity: group.child.name, identity: IdentityKey(identity).description,
                            attribute: fk.count == 1 ? table.columns[group.columns[0]].name : "foreign key",
                            base: "(parent)", local: ValueText.display(local.count == 1 ? local[0] : .array(local)),
                            remote: "null"))
                }
                if !conflicts.isEmpty { continue }
            }
            let counted = try engine.count(
                "SELECT count(*) FROM \(q(table.name)) AS d WHERE \(condition) AND (NOT \(hasBase) OR \(baseMatches) OR \(policy == .remote ? "1 = 1" : "1 = 0"))"
            )
            counts[group.child.index].updated += counted
            // The rows first: the bases' condition reads the base foreign key, which they then lose.
            let sets = fk.map { "\($0) = NULL" }.joined(separator: ", ")
            try engine.execute(
                "UPDATE \(q(table.name)) AS d SET \(sets) WHERE \(condition) AND (NOT \(hasBase) OR \(baseMatches) OR \(policy == .remote ? "1 = 1" : "1 = 0"))"
            )
            try engine.execute("UPDATE \(base) AS d SET \(sets) WHERE \(condition)")
        }
        return conflicts
    }
}
