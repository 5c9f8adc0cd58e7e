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
        let plan = FetchPlan(model: model, only: options.only)
        let fetched = Set(plan.waves.flatMap { $0.flatMap { $0.entities.map(\.name) } })
        let stages = try stages()
        // The store opens on first use, and is used on its worker (off the cooperative pool).
        let config = options.store ?? model.store ?? PluginConfig.defaultStore
        let store = RunStore { try registry.makeStore(config) }
        let stageLayout = StageLayout(store: StoreLayout(schema: schema), schema: schema)
        let channel = try await store.beginStaging(stageLayout)
        let mapper = RecordMapper(
            schema: schema, transformers: registry.transformers,
            stage: StageWriter(layout: stageLayout) { batch in try channel.submit(batch) })
        return try await runStreamed(
            options, progress: progress, schema: schema, mapper: mapper, plan: plan, fetched: fetched,
            stages: stages, rejected: RejectedRecords(), store: store, channel: channel, layout: stageLayout)
    }

    /// A run through the store's engine: records staged as they are mapped, then connected and
    /// merged in one transaction. On any failure the staging tables go, and nothing is written.
    private func runStreamed(
        _ options: RunOptions, progress: @escaping @Sendable (ProgressEvent) -> Void, schema: GraphSchema,
        mapper: RecordMapper, plan: FetchPlan, fetched: Set<String>, stages: [any Stage],
        rejected: RejectedRecords, store: RunStore, channel: StagingChannel, layout: StageLayout
    ) async throws -> RunResult {
        do {
            let result = try await streamed(
                options, progress: progress, schema: schema, mapper: mapper, plan: plan, fetched: fetched,
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
        mapper: RecordMapper, plan: FetchPlan, fetched: Set<String>, stages: [any Stage],
        rejected: RejectedRecords, store: RunStore, channel: StagingChannel, layout: StageLayout
    ) async throws -> RunResult {
        let cursors =
            IncrementalRun.entities(of: model, fetched: fetched).isEmpty
            ? [:] : try await store.use { try $0.runState(scope: IncrementalCursors.scope) }
        let incremental = IncrementalRun(model: model, fetched: fetched, full: options.full, stored: cursors)
        let state = SourceRunState(full: options.full, store: store)
        let sink = MappingSink(mapper: mapper)
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
                var mapped: [IdentityKey] = []
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
/// ``StoreReader``.
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
