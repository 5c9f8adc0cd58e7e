/// What a streamed run has once every source delivered: its records staged in the store's
/// engine, and what connecting and merging them needs.
struct StagedRun {
    let options: RunOptions
    let progress: @Sendable (ProgressEvent) -> Void
    let sink: MappingSink
    let stages: [any Stage]
    let rejected: RejectedRecords
    let skipped: SkippedRequests
    let channel: StagingChannel
    let layout: StageLayout
    let incremental: IncrementalRun
    let state: SourceRunState
    /// The payloads remembered unchanged, when the sources may skip them.
    let payloads: RememberedPayloads?
}

extension Pipeline {
    /// The rest of a streamed run once its records are staged: exec transformers over them,
    /// connect in the engine (required values checked first), stages, a strict run's check, then
    /// the merge into the store's tables with the run state, one commit.
    ///
    /// - Returns: the run's report.
    /// - Throws: ``StrictFailure``, ``ConflictError``, a stage's or the engine's errors; nothing is merged then.
    func merge(_ run: StagedRun) async throws -> RunReport {
        let (channel, layout, sink, state, incremental) = (
            run.channel, run.layout, run.sink, run.state, run.incremental
        )
        await sink.add(try await ExecTransformer.runAll(on: channel, layout: layout, model: model))

        // connect: in the store's engine, in its write transaction (required values checked first).
        let complete = incremental.completeEntities().subtracting(state.incompleteEntities)
        var runState = state.update
        run.progress(.stageStarted("connect"))
        let fills = await sink.fills
        let keepsLinks = !run.stages.isEmpty
        let unchanged = state.unchangedIdentities
        let skippedPayloads = run.payloads?.skippedOrigins ?? []
        let candidates = await sink.requiredCandidates
        let (rejections, connected, advanced) = try await channel.run { [complete] merge in
            let rejections = try merge.begin(unchanged: unchanged, skipped: skippedPayloads, candidates: candidates)
            let connected = try merge.connect(completeEntities: complete, keepingEveryLink: keepsLinks)
            let cursors = try incremental.update { try merge.cursorMaxima(of: $0, fills: fills[$0.name] ?? []) }
            return (rejections, connected, cursors)
        }
        await sink.add(rejections)
        runState.merge(advanced)
        var connectReport = connected
        connectReport.removeDangling(toUnchanged: state.unchangedIdentities, schema: layout.schema)
        run.progress(.stageFinished("connect"))

        // stages, then a strict run's check: both before anything is merged into the store.
        let objects = StagedObjects(
            channel: channel, layout: layout, links: try await channel.run { $0.runLinks() })
        let context = StageContext(model: model, reject: run.rejected.add, progress: run.progress)
        for stage in run.stages {
            run.progress(.stageStarted(stage.name))
            try await stage.run(on: objects, context: context)
            run.progress(.stageFinished(stage.name))
        }
        var report = RunReport(model: model, mapping: await sink.report, connect: connectReport, options: run.options)
        report.add(rejected: run.rejected.all)
        report.add(skipped: run.skipped.byEntity)
        if run.options.strict, report.hasProblems { throw StrictFailure(report: report) }

        // persist: merged into the store's tables, the run state with them, one commit.
        run.progress(.stageStarted("persist"))
        var request = WriteRequest(dryRun: run.options.dryRun, completeEntities: complete, runState: runState)
        request.unchangedIdentities = state.unchangedIdentities
        report.add(try await channel.run { [request] in try $0.finish(request) })
        if let payloads = run.payloads, !run.options.dryRun {
            await remember(payloads, report: report, channel: channel, progress: run.progress)
        }
        run.progress(.stageFinished("persist"))
        return report
    }
}
