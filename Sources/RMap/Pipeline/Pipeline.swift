/// The run pipeline: fetch -> map -> connect -> stages -> persist.
///
/// ```swift
/// let registry = PluginRegistry.standard()
/// let model = try MappingLoader(catalog: registry.catalog).load(["mappings/crm.yml"])
/// let config = PluginConfig(plugin: "sqlite", options: ["path": "crm.sqlite"])
/// let result = try await Pipeline(model: model, registry: registry).run(RunOptions(store: config))
/// print(result.report.totals.inserted)
/// // What the run stored is read from the store, by the model's names:
/// let people = try await StoreReader(store: SQLiteStore(path: "crm.sqlite"), model: model)
///     .objects(of: "CRMPerson").fetchAll()
/// ```
public struct Pipeline: Sendable {
    /// The model to run.
    public let model: MappingModel
    /// The plugins to run with.
    public let registry: PluginRegistry

    /// Creates a pipeline.
    public init(model: MappingModel, registry: PluginRegistry) {
        self.model = model
        self.registry = registry
    }

    /// Runs the pipeline once.
    ///
    /// Record errors and dangling references are collected in the report; the
    /// run fails (throws, writing nothing) on fetch errors, store errors,
    /// conflicts, and, with `strict`, on any rejected record or dangling reference.
    ///
    /// - Parameters:
    ///   - options: strictness, dry run, entity selection, concurrency and store.
    ///   - progress: receives progress events; called from any task.
    /// - Returns: the report; what the run stored is read from the store (``StoreReader``).
    public func run(
        _ options: RunOptions = RunOptions(), progress: @escaping @Sendable (ProgressEvent) -> Void = { _ in }
    ) async throws -> RunResult {
        let schema = GraphSchema(model: model)
        let graph = ObjectGraph(schema: schema)
        let mapper = RecordMapper(graph: graph, transformers: registry.transformers)
        let plan = FetchPlan(model: model, only: options.only)
        let fetched = Set(plan.waves.flatMap { $0.flatMap { $0.entities.map(\.name) } })
        let stages = try stages()
        let rejected = RejectedRecords()
        // The store opens on first use, and is used on its worker (off the cooperative pool).
        // Defaults and `required` need to know what is stored already, incremental entities
        // their cursors; other runs open the store to write.
        let store = RunStore { try registry.makeStore(options.store ?? model.store ?? PluginConfig.defaultStore) }
        let stageLayout = StageLayout(store: StoreLayout(schema: schema), schema: schema)
        if let channel = try await store.beginStaging(stageLayout) {
            return try await runStreamed(
                options, progress: progress, schema: schema, graph: graph, mapper: mapper, plan: plan, fetched: fetched,
                stages: stages, rejected: rejected, store: store, channel: channel, layout: stageLayout)
        }
        let needs = stages.map { "stage '\($0.name)'" }
            + ExecTransformer.all(in: schema).map { "exec transformer of \(schema.types[$0.root].name).\($0.attribute)" }
        if !needs.isEmpty {
            throw StoreWithoutEngine(store: (options.store ?? model.store ?? PluginConfig.defaultStore).plugin, needs: needs)
        }
        if !StoredIdentities.roots(in: schema).isEmpty {
            mapper.storedIdentities = try await store.use { try $0.storedIdentities(schema: schema) }
        }
        let cursors =
            IncrementalRun.entities(of: model, fetched: fetched).isEmpty
            ? [:] : try await store.use { try $0.runState(scope: IncrementalCursors.scope) }
        let incremental = IncrementalRun(model: model, fetched: fetched, full: options.full, stored: cursors)
        let state = SourceRunState(full: options.full, store: store)
        let sink = MappingSink(graph: graph, mapper: mapper)
        let skipped = SkippedRequests()

        // fetch -> map: sources deliver payloads to the mapping task as they come.
        progress(.stageStarted("fetch"))
        for wave in plan.waves {
            try await fetch(
                wave, sink: sink, jobs: max(1, options.jobs), cursors: incremental.cursors, state: state,
                payloads: nil, skipped: skipped, progress: progress)
        }
        progress(.stageFinished("fetch"))

        var runState = state.update
        runState.merge(incremental.update(graph: graph, fills: await sink.fills))
        let complete = incremental.completeEntities().subtracting(state.incompleteEntities)
        var request = WriteRequest(dryRun: options.dryRun, completeEntities: complete, runState: runState)
        request.unchangedIdentities = state.unchangedIdentities
        // Connections reach stored objects that a partial run did not fetch; a complete run
        // opens no store before it writes (a failing stage leaves no file behind).
        var lookedUp = true
        if !StoredDestinations.partialRoots(of: schema, request: request).isEmpty {
            let target = Confined(graph)
            lookedUp = try await store.use { [request] in
                try $0.addStoredDestinations(to: target.value, request: request)
            }
        }

        // connect: when nothing may change the graph after it (no stage, not strict), the
        // write begins first and stores the tables that connecting leaves alone meanwhile,
        // and once it is told that connecting is over, links between their batches of rows.
        let overlapped = options.strict ? nil : try await store.beginWrite(graph, request: request)
        progress(.stageStarted("connect"))
        async let settled: Void? = overlapped?.writeSettled()
        var connectReport = Connector(schema: schema).connect(graph)
        connectReport.removeDangling(toUnchanged: state.unchangedIdentities, schema: schema)
        if !options.only.isEmpty, !lookedUp {
            let report = mapper.report
            connectReport.dangling.removeAll { reference in
                !Self.arrived(reference.destination, schema: schema, fetched: fetched, mapping: report)
            }
        }
        overlapped?.connected()
        progress(.stageFinished("connect"))

        // a strict run's check, before the store is touched.
        var report = RunReport(model: model, mapping: mapper.report, connect: connectReport, options: options)
        report.add(rejected: rejected.all)
        report.add(skipped: skipped.byEntity)
        if options.strict, report.hasProblems { throw StrictFailure(report: report) }

        // persist
        progress(.stageStarted("persist"))
        let write = if let overlapped { overlapped } else { try await store.beginWrite(graph, request: request) }
        try await settled
        let written = try await write.finish()
        report.add(written)
        progress(.stageFinished("persist"))
        return RunResult(report: report)
    }

    /// A run through the store's engine: records staged as they are mapped, then connected and
    /// merged in one transaction. On any failure the staging tables go, and nothing is written.
    private func runStreamed(
        _ options: RunOptions, progress: @escaping @Sendable (ProgressEvent) -> Void, schema: GraphSchema,
        graph: ObjectGraph, mapper: RecordMapper, plan: FetchPlan, fetched: Set<String>, stages: [any Stage],
        rejected: RejectedRecords, store: RunStore, channel: StagingChannel, layout: StageLayout
    ) async throws -> RunResult {
        do {
            let result = try await streamed(
                options, progress: progress, schema: schema, graph: graph, mapper: mapper, plan: plan, fetched: fetched,
                stages: stages, rejected: rejected, store: store, channel: channel, layout: layout)
            await channel.close()
            return result
        } catch {
            await channel.close()
            await store.abandon()
            throw error
        }
    }

    private func streamed(
        _ options: RunOptions, progress: @escaping @Sendable (ProgressEvent) -> Void, schema: GraphSchema,
        graph: ObjectGraph, mapper: RecordMapper, plan: FetchPlan, fetched: Set<String>, stages: [any Stage],
        rejected: RejectedRecords, store: RunStore, channel: StagingChannel, layout: StageLayout
    ) async throws -> RunResult {
        mapper.stage = StageWriter(layout: layout) { batch in try channel.submit(batch) }
        let cursors =
            IncrementalRun.entities(of: model, fetched: fetched).isEmpty
            ? [:] : try await store.use { try $0.runState(scope: IncrementalCursors.scope) }
        let incremental = IncrementalRun(model: model, fetched: fetched, full: options.full, stored: cursors)
        let state = SourceRunState(full: options.full, store: store)
        let sink = MappingSink(graph: graph, mapper: mapper)
        let skipped = SkippedRequests()
        let payloads = RememberedPayloads(model: model, state: state) { payload in
            Self.report(try await sink.deliverCounted(payload), of: payload.entity, to: progress)
        }

        // fetch -> map -> stage: sources deliver payloads to the mapping task, which stages their records.
        progress(.stageStarted("fetch"))
        for wave in plan.waves {
            try await fetch(
                wave, sink: sink, jobs: max(1, options.jobs), cursors: incremental.cursors, state: state,
                payloads: payloads, skipped: skipped, channel: channel, progress: progress)
        }
        try await sink.flushStaged()
        progress(.stageFinished("fetch"))
        let staged = StagedRun(
            options: options, progress: progress, sink: sink, stages: stages, rejected: rejected, skipped: skipped,
            channel: channel, layout: layout, incremental: incremental, state: state, payloads: payloads)
        return RunResult(report: try await merge(staged))
    }

    /// The stages a run runs: the registry's, then the model's.
    func stages() throws -> [any Stage] {
        try registry.stages + model.stages.map { try registry.makeStage($0, model: model) }
    }

    /// Remembers the payloads this run mapped cleanly, after its data committed: a failure only
    /// means that the next run maps them again, so it is a note, not an error.
    func remember(
        _ payloads: RememberedPayloads, report: RunReport, channel: StagingChannel,
        progress: @Sendable (ProgressEvent) -> Void
    ) async {
        let origins = payloads.confirmed(report: report)
        guard !origins.isEmpty else { return }
        do {
            try await channel.run { merge in
                let remembered = try merge.remember(Array(origins.keys).sorted(), rules: payloads.rules)
                try merge.writeRunState(payloads.entries(origins.filter { remembered.contains($0.key) }))
            }
        } catch {
            progress(.note("unchanged payloads not remembered (the next run maps them again): \(error)"))
        }
    }

    /// Whether `entity`'s table took part in this run (fetched, or records of it arrived nested):
    /// an `--only` run that left it out cannot tell a dangling reference to it from one to a stored object.
    private static func arrived(
        _ entity: String, schema: GraphSchema, fetched: Set<String>, mapping: MappingReport
    ) -> Bool {
        guard let type = schema.type(named: entity) else { return true }
        return schema.family(of: schema.root(of: type)).contains { member in
            fetched.contains(member.name) || (mapping.entities[member.name]?.fetched ?? 0) > 0
        }
    }

    /// The progress of a mapped payload: its entity's records, then those nested in them.
    private static func report(
        _ counts: MappedCounts, of entity: String, to progress: @Sendable (ProgressEvent) -> Void
    ) {
        progress(.mapped(entity: entity, records: counts.records))
        for (nested, records) in counts.nested.sorted(by: { $0.key < $1.key }) {
            progress(.nested(entity: nested, within: entity, records: records))
        }
    }

    private func fetch(
        _ wave: [FetchPlan.Group], sink: MappingSink, jobs: Int, cursors: IncrementalCursors, state: SourceRunState,
        payloads: RememberedPayloads?, skipped: SkippedRequests, channel: StagingChannel? = nil,
        progress: @escaping @Sendable (ProgressEvent) -> Void
    ) async throws {
        let model = self.model
        let context = FetchContext(
            model: model,
            deliver: { payload in
                Self.report(try await sink.deliverCounted(payload), of: payload.entity, to: progress)
            },
            identities: { entity in
                // Parents in payloads skipped unchanged are parents too.
                var mapped = await sink.identities(of: entity)
                if let channel {
                    // A streamed run's parents are staged: everything mapped so far, then read back.
                    try? await sink.flushStaged()
                    mapped = (try? await channel.run { try $0.identities(of: entity) }) ?? []
                }
                if let channel, let skipped = payloads?.skippedOrigins, !skipped.isEmpty {
                    let remembered = (try? await channel.run { try $0.remembered(of: entity, origins: skipped) }) ?? []
                    var known = Set(mapped)
                    mapped += remembered.filter { known.insert($0).inserted }
                }
                return mapped
            },
            progress: progress, cursors: cursors, runState: state,
            deliverIdentified: { payload in
                let (counts, identities) = try await sink.deliverIdentified(payload)
                Self.report(counts, of: payload.entity, to: progress)
                return identities
            }, payloads: payloads, skipped: skipped)
        let sources = try wave.map { (try registry.makeSource($0.config, model: model), $0.entities) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var running = 0
            for (source, entities) in sources {
                if running == jobs {
                    try await group.next()
                    running -= 1
                }
                group.addTask {
                    try await source.fetch(entities, context: context)
                    for entity in entities { progress(.entityFetched(entity.name)) }
                }
                running += 1
            }
            try await group.waitForAll()
        }
    }
}

/// What a run produced: its report. The objects it stored are in the store, read with
/// ``StoreReader`` (or, for a store without an engine, what its `write(_:request:)` received).
public struct RunResult: Sendable {
    /// Counts, rejected records and dangling references.
    public var report: RunReport
}

/// A `--strict` run that met rejected records or dangling references; nothing was written.
public struct StrictFailure: Error, CustomStringConvertible {
    /// The report of what was found.
    public var report: RunReport

    public var description: String {
        "strict run failed: \(report.rejectedCount) rejected record(s), \(report.danglingCount) dangling reference(s); nothing was written"
    }
}

extension PluginConfig {
    /// `sqlite` at `rmap.sqlite` in the working folder: the store when none is named.
    public static var defaultStore: PluginConfig {
        PluginConfig(plugin: "sqlite", options: ["path": "rmap.sqlite"])
    }
}
