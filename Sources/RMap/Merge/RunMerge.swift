/// The store side of one run, in the phases the pipeline drives (docs/architecture.md, "Data
/// flow"): staging tables made, batches of mapped rows staged, then in one write transaction the
/// occurrences merged per object, the objects connected and merged into the store's tables,
/// the run state written, and commit (or, for a dry run, rollback).
///
/// Staging touches only the run's temporary tables: the store's write lock is taken by
/// ``begin()`` and held until ``finish(_:)`` or ``rollback()``. Not thread-safe: it belongs to
/// the store's worker.
final class RunMerge {
    let engine: any SQLEngine
    let layout: StageLayout
    private var open = false
    private var connector: SQLConnector?
    /// The objects sources saw unchanged, staged by ``begin(unchanged:skipped:)``.
    private var unchanged: UnchangedObjects?
    /// The objects `modified_by` found older than the store's, by entity index (``StaleRecords``).
    private var stale: [Int: Int] = [:]
    /// The connection steps whose links tables exist.
    private var kept = Set<Int>()
    /// The statements merging staged occurrences into rows, by the position of the tables merged
    /// while staging (``RowCollapse/stagingUpsert``).
    private var upserts: [Int: StagingUpsert] = [:]
    /// Whether the identities of the tables merged while staging in identity order still come in
    /// order, by position (``StagingKeyOrder``).
    private var keyOrders: [Int: StagingKeyOrder] = [:]
    /// Whether the identities of the other tables came in ascending order, each once, by position
    /// (``AscendingIdentities``).
    private var ascending: [Int: AscendingIdentities] = [:]

    init(engine: any SQLEngine, layout: StageLayout) {
        self.engine = engine
        self.layout = layout
    }

    /// Makes the staging tables (dropping any a failed run of this connection left), and the
    /// merged rows of the tables merged while staging.
    func prepare() throws {
        for sql in StageSchema.drop(layout, dialect: engine.dialect) { try engine.execute(sql) }
        for sql in StageSchema.create(layout, dialect: engine.dialect) { try engine.execute(sql) }
        for stage in layout.tables {
            let collapse = RowCollapse(stage: stage, layout: layout, dialect: engine.dialect)
            guard collapse.whileStaging else {
                ascending[stage.position] = AscendingIdentities(stage)
                continue
            }
            try collapse.prepare(on: engine)
            upserts[stage.position] = collapse.stagingUpsert
            if collapse.keepsIdentityOrder { keyOrders[stage.position] = StagingKeyOrder(keyPosition: stage.firstKey) }
        }
    }

    /// Stages a batch of rows: merged into the rows while their identities come in order, else
    /// as occurrences (``StagingKeyOrder``).
    func stage(_ batch: StageBatch) throws {
        var upserts = self.upserts
        for (position, rows) in batch.rows.enumerated() where !rows.isEmpty {
            if keyOrders[position]?.admits(rows) == false { upserts[position] = nil }
            ascending[position]?.note(rows)
        }
        try batch.write(to: engine, layout: layout, upserts: upserts)
    }

    /// Opens the write transaction, brings the store's tables up to the model and merges each
    /// table's occurrences into one row per object, its entity settled against the stored row;
    /// children a later record of their parent no longer lists lose its key
    /// (``ReleasedChildrenSQL/releaseListedEarlier(on:)``).
    ///
    /// - Parameter candidates: required values lacking in records rejected while mapping.
    /// - Returns: the records rejected for lacking a required value (``RequiredCheck``), and the
    ///   candidates' errors withdrawn.
    func begin(
        unchanged: [String: [IdentityKey]] = [:], skipped: Set<String> = [], candidates: [RequiredCheck.Candidate] = []
    ) throws -> RequiredCheck.Rejections {
        try engine.begin(.write)
        open = true
        try StoreSchema.ensure(layout.store, on: engine)
        let remembered = RememberedObjects(layout: layout, dialect: engine.dialect)
        if !skipped.isEmpty { try remembered.ensure(on: engine) }
        self.unchanged = try UnchangedObjects(
            unchanged, skipped: skipped, remembered: remembered, layout: layout, on: engine)
        let rejections = try RequiredCheck(layout: layout, dialect: engine.dialect).run(
            on: engine, candidates: candidates)
        for members in layout.members { try engine.gatherStatistics(of: members.name) }
        for stage in layout.tables {
            try engine.gatherStatistics(of: stage.stageName)
            let collapse = RowCollapse(stage: stage, layout: layout, dialect: engine.dialect)
            try collapse.run(on: engine, occurrencesAreRows: ascending[stage.position]?.holds == true)
            try collapse.indexIdentity(on: engine)
            try engine.gatherStatistics(of: stage.rowsName)
            let merge = TableMerge(stage: stage, layout: layout, dialect: engine.dialect)
            try merge.entities.resolveEntities(on: engine)
            try merge.entities.dropColumnsOfOtherEntities(on: engine)
        }
        if var seen = self.unchanged, layout.schema.types.contains(where: { $0.mapping.modifiedBy != nil }) {
            stale = try StaleRecords(layout: layout, dialect: engine.dialect).skip(into: &seen, on: engine)
            self.unchanged = seen
        }
        try ReleasedChildrenSQL(layout: layout, dialect: engine.dialect).releaseListedEarlier(on: engine)
        return rejections
    }

    /// Connects the run's objects (``SQLConnector``); with `keepingEveryLink`, every connection's
    /// links are kept for stages to follow (``runLinks()``).
    func connect(completeEntities: Set<String>, keepingEveryLink: Bool = false) throws -> ConnectReport {
        // A table with objects seen unchanged holds destinations the run did not stage.
        let positions = Set(unchanged?.tables.keys.map { $0 } ?? [])
        let seen = Set(
            layout.schema.types.filter { positions.contains(layout.store.bindings[$0.index].table) }.map(\.name))
        var connector = SQLConnector(
            layout: layout, dialect: engine.dialect, completeEntities: completeEntities.subtracting(seen),
            keepsEveryLink: keepingEveryLink)
        let report = try connector.connect(on: engine)
        self.connector = connector
        kept = connector.kept
        return report
    }

    /// The run's links, as stages follow them, once connected.
    func runLinks() -> RunLinks {
        RunLinks(layout: layout, dialect: engine.dialect, steps: connector?.steps ?? [], kept: kept)
    }

    /// Merges the objects into the store's tables, writes the run state, and commits (a dry run
    /// rolls back).
    ///
    /// - Throws: ``ConflictError`` when an `on_conflict: fail` entity meets conflicts (nothing is
    ///   written), or the engine's errors; the transaction is rolled back.
    func finish(_ request: WriteRequest) throws -> WriteReport {
        do {
            var counts = Array(repeating: EntityWriteCounts(), count: layout.schema.types.count)
            let merges = try layout.tables.map { stage in
                var merge = TableMerge(stage: stage, layout: layout, dialect: engine.dialect)
                try merge.look(on: engine)
                return merge
            }
            let edges = NestedEdges(layout: layout, dialect: engine.dialect)
            let replaced = ReplacedNestedObjects(layout: layout, edges: edges)
            let noted = try replaced.note(on: engine)
            let released = ReleasedChildrenSQL(layout: layout, dialect: engine.dialect)
            try released.releaseStaged(on: engine)
            var conflicts = try merges.flatMap { try $0.conflicts(on: engine) }
            conflicts += try released.releaseStored(on: engine, counts: &counts)
            if !conflicts.isEmpty { throw ConflictError(conflicts: conflicts) }
            let unchanged = try self.unchanged ?? UnchangedObjects([:], layout: layout, on: engine)
            try unchanged.count(into: &counts, on: engine)
            // Stale objects were counted with the unchanged ones they are kept as.
            for (entity, number) in stale {
                counts[entity].unchanged -= number
                counts[entity].stale += number
            }
            for (merge, stage) in zip(merges, layout.tables) {
                let written = try merge.count(on: engine, into: &counts)
                try TableDeletion(stage: stage, layout: layout, dialect: engine.dialect)
                    .deleteTombstones(on: engine, counts: &counts)
                // Stored rows first: the rows inserted next hold the payload's values already.
                try merge.updateInSync(on: engine, updated: written.updated)
                try merge.insertNew(on: engine, new: written.new)
                try merge.updateThreeWay(on: engine)
                try merge.settleLocalCreations(on: engine, marks: stage.table.insertedName)
            }
            if let connector {
                try LinkMerge(layout: layout, dialect: engine.dialect, connector: connector).write(on: engine)
            }
            try OneToOneClaims(layout: layout, dialect: engine.dialect).settle(on: engine)
            if noted {
                try replaced.delete(on: engine, counts: &counts)
                replaced.drop(on: engine)
            }
            for name in request.completeEntities.sorted() {
                guard let type = layout.schema.type(named: name), type.mapping.orphans == .delete else { continue }
                let position = layout.store.bindings[type.index].table
                try TableDeletion(stage: layout.tables[position], layout: layout, dialect: engine.dialect)
                    .deleteOrphans(of: type, unchanged: unchanged.tables[position], on: engine, counts: &counts)
            }
            try UnreachableObjects(layout: layout, edges: edges).delete(on: engine, counts: &counts)
            try RunStateTable.write(request.runState, to: engine)
            if request.dryRun { engine.rollback() } else { try engine.commit() }
            open = false
            return WriteReport(
                entities: Dictionary(
                    layout.schema.types.map { ($0.name, counts[$0.index]) }, uniquingKeysWith: { first, _ in first }))
        } catch {
            rollback()
            throw error
        }
    }

    /// The largest cursor of each incremental entity's keys among the run's objects (``CursorMaximaSQL``).
    func cursorMaxima(of entity: EntityMapping, fills: Set<String>) throws -> [String: Value] {
        try CursorMaximaSQL.maxima(of: entity, fills: fills, layout: layout, on: engine)
    }

    /// The identities of the staged objects of `entity`'s family, in the order first staged: the
    /// parents of a nested fetch. An entity the model does not know has none.
    func identities(of entity: String) throws -> [IdentityKey] {
        guard let type = layout.schema.type(named: entity) else { return [] }
        let stage = layout.table(of: type)
        let q = engine.dialect.quote
        let family = layout.schema.family(of: type).map { String($0.index) }.joined(separator: ", ")
        let identity = stage.table.identityNames.map { "s.\(q($0))" }.joined(separator: ", ")
        if keyOrders[stage.position]?.isOutOfOrder == true {
            try RowCollapse(stage: stage, layout: layout, dialect: engine.dialect).mergeOutOfOrder(on: engine)
        }
        let sql =
            upserts[stage.position] == nil
            ? "SELECT \(identity) FROM \(q(stage.stageName)) AS s WHERE s.\(q("_entity")) IN (\(family)) "
                + "GROUP BY \(identity) ORDER BY min(s.\(q("_seq")))"
            : "SELECT \(identity) FROM \(q(stage.rowsName)) AS s WHERE s.\(q("_entity")) IN (\(family)) ORDER BY s.\(q("_first"))"
        var identities: [IdentityKey] = []
        try engine.query(sql, [], types: stage.table.identity.map { stage.table.columns[$0].type }) {
            identities.append(IdentityKey($0))
        }
        return identities
    }

    /// Rolls the write transaction back, if open.
    func rollback() {
        if open { engine.rollback() }
        open = false
    }

    /// Remembers the objects of `origins`' payloads (``RememberedObjects``), in a transaction of its own.
    func remember(_ origins: [String], rules: PayloadSkipRules) throws -> [String] {
        // Stale objects left the rows, not the occurrences.
        let staleTables = Set(stale.filter { $0.value > 0 }.map { layout.store.bindings[$0.key].table })
        let whole = Set(ascending.filter { $0.value.holds }.keys).subtracting(staleTables)
        return try engine.transaction {
            try RememberedObjects(layout: layout, dialect: engine.dialect)
                .remember(origins, rules: rules, occurrencesAreRows: whole, on: engine)
        }
    }

    /// Writes run state in a transaction of its own.
    func writeRunState(_ update: RunStateUpdate) throws {
        try engine.transaction { try RunStateTable.write(update, to: engine) }
    }

    /// The identities of `entity`'s family among the remembered objects of the skipped `origins`.
    func remembered(of entity: String, origins: Set<String>) throws -> [IdentityKey] {
        guard let type = layout.schema.type(named: entity) else { return [] }
        let stage = layout.table(of: type)
        let remembered = RememberedObjects(layout: layout, dialect: engine.dialect)
        guard try !engine.columns(of: RememberedObjects.name(stage.table)).isEmpty,
            let query = remembered.skipped(origins, table: stage)
        else { return [] }
        let family = Set(layout.schema.family(of: type).map(\.index))
        var identities: [IdentityKey] = []
        try engine.query(
            query.sql, query.parameters, types: [.int] + stage.table.identity.map { stage.table.columns[$0].type }
        ) {
            row in
            if case .int(let index) = row[0], family.contains(Int(index)) {
                identities.append(IdentityKey(Array(row.dropFirst())))
            }
        }
        return identities
    }

    /// Drops the staging tables.
    func close() {
        unchanged?.drop(on: engine)
        connector?.drop(on: engine)
        for sql in StageSchema.drop(layout, dialect: engine.dialect) { _ = try? engine.execute(sql) }
    }
}
