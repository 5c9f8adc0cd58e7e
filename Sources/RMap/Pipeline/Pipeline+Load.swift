/// What ``Pipeline/load(_:from:parents:into:)`` did: the run's report, and the objects the
/// answers held.
package struct LoadedObjects: Sendable {
    /// Counts, rejected records and dangling references, as a run reports them.
    package var report: RunReport
    /// By root entity, the identities of the objects the answers held (nested ones included),
    /// in the order they first came.
    package var identities: [String: [IdentityKey]]
}

extension Pipeline {
    /// Loads what one source delivers for `entities` into `store`, through the streamed run: the
    /// live session's fetch. Records are mapped and staged as they come, connected and merged
    /// three-way against the base in one transaction (``merge(_:)``); nothing else of a run
    /// applies: no cursors or run state are read or written, no fetch counts as complete (no
    /// orphan is deleted).
    ///
    /// - Parameters:
    ///   - entities: the entities `source` fetches.
    ///   - parents: the identities of a parent entity, for nested fetches (one index per parent).
    ///   - store: the store, on the worker that owns its engine.
    /// - Throws: the source's, a stage's or the engine's errors, ``ConflictError``; nothing is
    ///   merged then.
    package func load(
        _ entities: [EntityMapping], from source: any Source,
        parents: @escaping @Sendable (String) async -> [IdentityKey], into store: RunStore
    ) async throws -> LoadedObjects {
        let schema = GraphSchema(model: model)
        let layout = StageLayout(store: StoreLayout(schema: schema), schema: schema)
        let channel = try await store.beginStaging(layout)
        do {
            let mapper = RecordMapper(
                schema: schema, transformers: registry.transformers,
                stage: StageWriter(layout: layout) { batch in try channel.submit(batch) })
            let sink = MappingSink(mapper: mapper)
            let context = FetchContext(
                model: model, deliver: { _ = try await sink.deliverCounted($0) }, identities: parents,
                progress: { _ in })
            try await source.fetch(entities, context: context)
            try await sink.flushStaged()
            let staged = StagedRun(
                options: RunOptions(), progress: { _ in }, sink: sink,
                stages: try stages(),
                rejected: RejectedRecords(), skipped: SkippedRequests(), channel: channel, layout: layout,
                incremental: IncrementalRun(model: model, fetched: [], full: false, stored: [:]),
                state: SourceRunState(), payloads: nil)
            let report = try await merge(staged)
            let identities = try await channel.run { merge in
                try Dictionary(uniqueKeysWithValues: schema.roots.map { ($0.name, try merge.identities(of: $0.name)) })
            }
            await channel.close()
            return LoadedObjects(report: report, identities: identities)
        } catch {
            await channel.close()
            throw error
        }
    }
}
