@testable import RMap

/// A run's merge in a store's engine (``RunMerge``) that staged no records: what a run writes
/// besides its objects (its run state), in the run's one transaction, committed, or rolled back
/// for a dry run.
enum EmptyMerge {
    /// Merges nothing of `model` but `request`'s run state, on `engine`.
    @discardableResult
    static func write(_ request: WriteRequest, model: MappingModel, on engine: any SQLEngine) throws -> WriteReport {
        let schema = GraphSchema(model: model)
        let merge = RunMerge(engine: engine, layout: StageLayout(store: StoreLayout(schema: schema), schema: schema))
        try merge.prepare()
        defer { merge.close() }
        _ = try merge.begin()
        _ = try merge.connect(completeEntities: request.completeEntities)
        return try merge.finish(request)
    }
}
