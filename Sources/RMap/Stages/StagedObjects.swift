/// The run's objects while its stages run (after connect, before the merge), in the store's
/// engine: a ``Stage`` reads them a batch at a time, follows their relationships through the
/// run's links, and sets values, which are staged as a payload's would be.
///
/// ```swift
/// try await objects.update("CRMProject") { project, reader in
///     let owner: String? = try reader.relatedObject(project, "owner")?["name"]
///     try project.set("ownerName", to: owner.map(Value.string) ?? .null)
/// }
/// ```
public final class StagedObjects: Sendable {
    let channel: StagingChannel
    let layout: StageLayout
    let links: RunLinks
    /// The objects read and written at a time.
    static let batchSize = 512

    init(channel: StagingChannel, layout: StageLayout, links: RunLinks) {
        self.channel = channel
        self.layout = layout
        self.links = links
    }

    /// Calls `body` with every object of `entity` (its sub-entities' included), in the order they
    /// were staged; the values `body` sets are staged. `body` runs on the store's thread, a batch
    /// at a time, and may read related objects through the reader it is given.
    ///
    /// - Throws: ``GraphError/unknownEntity(_:)``, what `body` throws (nothing more is staged), or
    ///   the engine's errors.
    public func update(
        _ entity: String, _ body: @escaping @Sendable (inout StagedObject, StagedReader) throws -> Void
    ) async throws {
        guard let type = layout.schema.type(named: entity) else { throw GraphError.unknownEntity(entity) }
        var last: Int64 = 0
        while true {
            let (next, done) = try await channel.run { [layout, links, last] merge in
                let reader = StagedReader(engine: merge.engine, layout: layout, links: links)
                var batch = try reader.batch(of: type, after: last, limit: Self.batchSize)
                for index in batch.objects.indices { try body(&batch.objects[index], reader) }
                try reader.stage(batch.objects.filter { !$0.changes.isEmpty })
                return (batch.last, batch.objects.count < Self.batchSize)
            }
            last = next
            if done { return }
        }
    }

    /// Calls `body` with every object of `entity`, in the order they were staged, without changing any.
    public func forEach(_ entity: String, _ body: @escaping @Sendable (StagedObject, StagedReader) throws -> Void)
        async throws
    {
        try await update(entity) { object, reader in try body(object, reader) }
    }
}
